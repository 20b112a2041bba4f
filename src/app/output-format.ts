import type { TargetConfig } from '../io/config-targets';
import { Diagnostic } from '../diagnostics';
import { AnalysisVerdictError, InputError, errorText, exitCodeFor } from '../errors';
import { serializeValue } from '../yaml/serialize';
import type { RunContext } from './context';

/**
 * Machine-readable output, one implementation for every command that prints state: `--json` or
 * `-o json|yaml`. Each document carries `apiVersion` and `kind`, so its shape is versioned; the JSON
 * Schema of every kind is committed in schemas/output/ and documented in docs/output.md.
 */
export type OutputFormat = 'text' | 'json' | 'yaml';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'yaml'];
export const OUTPUT_API_VERSION = 'rollgen.dev/v1alpha1';

export interface OutputOptions {
  readonly output?: OutputFormat;
}

/** The kinds of document rollgen prints; `schemas/output/<file>.json` describes each. */
export const OUTPUT_KINDS = {
  Plan: 'plan',
  Status: 'status',
  Validation: 'validate',
  Simulation: 'simulate',
  ChangeReport: 'change',
  PullRequestReport: 'pr',
  AnalysisReport: 'analyze',
  Error: 'error',
} as const;
export type OutputKind = keyof typeof OUTPUT_KINDS;

export function isMachineOutput(o: OutputOptions | undefined): boolean {
  return o?.output === 'json' || o?.output === 'yaml';
}

export function outputDocument(kind: OutputKind, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { apiVersion: OUTPUT_API_VERSION, kind, ...data };
}

/** Prints one document in the chosen format (JSON: two-space indented; YAML: rollgen's one serializer setup). */
export function printDocument(
  ctx: Pick<RunContext, 'stdout'>,
  format: OutputFormat | undefined,
  kind: OutputKind,
  data: Readonly<Record<string, unknown>>,
): void {
  const doc = outputDocument(kind, data);
  ctx.stdout(format === 'yaml' ? serializeValue(doc) : JSON.stringify(doc, null, 2) + '\n');
}

/**
 * An error as a document: what a script reads on stdout under `--json` instead of parsing stderr.
 * The exit status stays the one exitCodeFor gives; diagnostics keep their file, line and column.
 */
export function errorDocument(error: unknown): Record<string, unknown> {
  const diagnostics: readonly Diagnostic[] = error instanceof InputError ? error.diagnostics : [];
  return {
    error: {
      type: errorType(error),
      exitCode: exitCodeFor(error),
      message: errorText(error),
      diagnostics: diagnostics.map(diagnosticData),
      ...(error instanceof AnalysisVerdictError ? { verdict: error.phase } : {}),
    },
  };
}

function errorType(error: unknown): string {
  if (error instanceof Error && error.name !== 'Error' && !(error instanceof TypeError)) return error.name;
  return 'InternalError';
}

/** Errors a report already carries (the run printed its document): the shell prints no second one. */
const carried = new WeakSet<object>();
export const carryError = (e: unknown) => void (typeof e === 'object' && e !== null && carried.add(e));
export const errorCarried = (e: unknown) => typeof e === 'object' && e !== null && carried.has(e);

/** Diagnostics as plain data (warnings in a report). */
export function diagnosticData(d: Diagnostic): Record<string, unknown> {
  return { file: d.file, line: d.line, col: d.col, severity: d.severity, message: d.message };
}

/** A fleet target's identity in a machine-readable document (`target`), present only on targets (docs/fleet.md). */
export function targetData(loc: { readonly target?: TargetConfig }): { target?: TargetData } {
  const t = loc.target;
  return t ? { target: { app: t.app, name: t.name, cluster: t.cluster, labels: { ...t.labels } } } : {};
}

export interface TargetData {
  readonly app: string;
  readonly name: string;
  readonly cluster: string;
  readonly labels: Readonly<Record<string, string>>;
}
