import { Diagnostic, diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { TrackLabel } from '../model/track';
import { ArgInput, originOf } from '../model/analysis-request';
import { TemplateDoc } from './templates';
import { SecretArg } from './types';
import { MetricSecrets } from './credentials';

/** What args may be read from: the rollout object (fieldRef) and rollgen's track label (podTemplateHashValue). */
export interface ArgContext {
  readonly rollout: unknown;
  readonly track: TrackLabel;
  /** rollgen.yaml `metricSecrets`: where providers' credentials are read. */
  readonly secrets?: MetricSecrets;
}

export interface ResolvedArgs {
  readonly values: ReadonlyMap<string, string>;
  /** Every arg the templates declare (an unresolved one is reported once, where it is declared). */
  readonly declared: ReadonlySet<string>;
  readonly secrets: readonly SecretArg[];
}

/** Argo's flattenArgs over several templates, then MergeArgs with the caller's args; every arg resolved or refused. */
export function resolveArgs(
  templates: readonly TemplateDoc[],
  incoming: readonly ArgInput[],
  ctx: ArgContext,
  out: Diagnostic[],
  /** false when a template was missing: an arg may belong to it, so undeclared args are not warned about. */
  complete = true,
): ResolvedArgs {
  const merged = new Map<string, ArgInput>();
  for (const arg of templates.flatMap((t) => t.args)) {
    const prev = merged.get(arg.name);
    if (prev?.value !== undefined && arg.value !== undefined && prev.value !== arg.value)
      out.push(
        diagnosticAt(
          originOf(arg.at),
          `arg "${arg.name}" is set twice with different values ("${prev.value}", "${arg.value}") across the templates`,
        ),
      );
    if (!prev || prev.value === undefined) merged.set(arg.name, arg);
  }
  for (const arg of incoming) {
    const declared = merged.get(arg.name);
    if (!declared) {
      if (complete)
        out.push(
          diagnosticAt(
            originOf(arg.at),
            `arg "${arg.name}" is not declared by any of the templates; it is ignored`,
            'warning',
          ),
        );
      continue;
    }
    if (arg.value !== undefined || arg.valueFrom !== undefined) merged.set(arg.name, arg);
  }
  const values = new Map<string, string>();
  const secrets: SecretArg[] = [];
  for (const arg of merged.values()) {
    const r = resolveOne(arg, ctx, out);
    if (r && 'secret' in r) secrets.push(r.secret);
    else if (r) values.set(arg.name, r.value);
  }
  return { values, declared: new Set(merged.keys()), secrets };
}

/** Environment variable that carries a secret arg: ROLLGEN_ARG_ + the arg name in upper case, other characters as `_`. */
export const secretEnvName = (arg: string): string => `ROLLGEN_ARG_${arg.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

function resolveOne(
  arg: ArgInput,
  ctx: ArgContext,
  out: Diagnostic[],
): { value: string } | { secret: SecretArg } | undefined {
  if (arg.value !== undefined) return { value: arg.value };
  const from = arg.valueFrom;
  if (!from) {
    out.push(
      diagnosticAt(originOf(arg.at), `arg "${arg.name}" has no value; give it one in the rollout's analysis args`),
    );
    return undefined;
  }
  if (from.podTemplateHashValue !== undefined) {
    const which = from.podTemplateHashValue;
    if (which !== 'Stable' && which !== 'Latest') {
      out.push(diagnosticAt(originOf(arg.at, 'valueFrom'), `podTemplateHashValue must be Stable or Latest`));
      return undefined;
    }
    // rollgen's pods are told apart by the track label, not a ReplicaSet hash.
    return { value: which === 'Latest' ? ctx.track.canary : ctx.track.stable };
  }
  if (isObject(from.fieldRef)) return fieldRef(arg, String(from.fieldRef.fieldPath ?? ''), ctx, out);
  if (from.secretKeyRef !== undefined) return { secret: { name: arg.name, env: secretEnvName(arg.name) } };
  out.push(
    diagnosticAt(
      originOf(arg.at, 'valueFrom'),
      `arg "${arg.name}": valueFrom supports podTemplateHashValue, fieldRef and secretKeyRef`,
    ),
  );
  return undefined;
}

/** Argo reads fieldRef from the Rollout: `metadata.name`, `metadata.labels['app']`, `spec.x.y`. */
function fieldRef(arg: ArgInput, fieldPath: string, ctx: ArgContext, out: Diagnostic[]): { value: string } | undefined {
  const segments = [...fieldPath.matchAll(/([^.[\]]+)|\[['"]?([^'"\]]+)['"]?\]/g)].map((m) => m[1] ?? m[2]);
  let v: unknown = ctx.rollout;
  for (const s of segments) v = isObject(v) && Object.hasOwn(v, s) ? v[s] : undefined;
  if (v === undefined || v === null || isObject(v) || Array.isArray(v)) {
    out.push(
      diagnosticAt(
        originOf(arg.at, 'valueFrom', 'fieldRef'),
        `arg "${arg.name}": fieldRef "${fieldPath}" names no value of the rollout`,
      ),
    );
    return undefined;
  }
  return { value: String(v) };
}

/** The first `{{args.X}}` still in `text` that is not a secret arg (those are filled at measurement time). */
export function unresolvedArg(text: string, args: ResolvedArgs): string | undefined {
  for (const m of text.matchAll(/\{\{\s*args\.([\w.-]+)\s*\}\}/g))
    if (!args.secrets.some((s) => s.name === m[1]) && !args.declared.has(m[1])) return m[1];
  return undefined;
}
