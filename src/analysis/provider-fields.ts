import { Diagnostic, Origin, diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { ResolvedArgs, unresolvedArg } from './args';
import { MetricSecrets } from './credentials';
import { parseGoDuration } from './metric';
import { suggestName } from '../suggest';

/** One provider's body as written, with what reading its fields needs; problems go to `out`, at their field. */
export interface ProviderFields {
  /** The provider's key as written (`datadog`, `newRelic`). */
  readonly kind: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly here: (...field: (string | number)[]) => Origin;
  /** Substitutes `{{args.X}}` (secret args stay, filled when measuring). */
  readonly fill: (text: string) => string;
  readonly args: ResolvedArgs;
  readonly secrets?: MetricSecrets;
  readonly out: Diagnostic[];
}

/** A string field with args substituted; a missing required one, or an undeclared arg, is refused at its field. */
export function textField(f: ProviderFields, field: string, required: boolean): string | undefined {
  return textAt(f, f.body[field], [field], required);
}

export function textAt(
  f: ProviderFields,
  v: unknown,
  path: readonly (string | number)[],
  required: boolean,
): string | undefined {
  const name = path.join('.');
  if (v === undefined || v === null || v === '') {
    if (required) f.out.push(diagnosticAt(f.here(...path.slice(0, -1)), `${f.kind} provider needs ${name}`));
    return undefined;
  }
  if (isObject(v) || Array.isArray(v)) {
    f.out.push(diagnosticAt(f.here(...path), `${f.kind} ${name} must be a string`));
    return undefined;
  }
  const filled = f.fill(String(v));
  const leftover = unresolvedArg(filled, f.args);
  if (leftover)
    f.out.push(diagnosticAt(f.here(...path), `${name} uses {{args.${leftover}}}, which no template declares`));
  return filled;
}

/** A Go duration field (`5m`) in seconds, or `fallback` when not written. */
export function durationField(f: ProviderFields, field: string, fallback: number): number {
  const text = textField(f, field, false);
  if (text === undefined) return fallback;
  const seconds = parseGoDuration(text);
  if (seconds !== undefined && seconds > 0) return seconds;
  f.out.push(diagnosticAt(f.here(field), `${f.kind} ${field} "${text}" is not a positive duration such as 30s or 5m`));
  return fallback;
}

/** Fields of the provider rollgen does not know are refused where they are written (Argo's CRD would not have them). */
export function refuseUnknown(f: ProviderFields, known: readonly string[]): void {
  for (const k of Object.keys(f.body).filter((k) => !known.includes(k))) {
    const near = suggestName(k, [...known]);
    f.out.push(
      diagnosticAt(f.here(k), `${f.kind} field ${k} is not an Argo field${near ? `; did you mean ${near}?` : ''}`),
    );
  }
}
