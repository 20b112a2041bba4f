import { Diagnostic, Origin } from '../diagnostics';
import { isObject } from '../model/kube';

type At = (field: readonly (string | number)[]) => Origin;

/**
 * Values of one rollgen.yaml app entry that the schema cannot judge: a track label whose stable and
 * canary values are the same (each Service would select both versions' pods), and placeholders
 * other than `{name}` (kept as written, they would name a directory or a check nobody meant).
 */
export function entryValueProblems(e: Record<string, unknown>, at: At): Diagnostic[] {
  const out: Diagnostic[] = [];
  const track = isObject(e.trackLabel) ? e.trackLabel : {};
  if (track.stable !== undefined && track.stable === track.canary)
    out.push({
      ...at(['trackLabel', 'canary']),
      message: `trackLabel: stable and canary are both "${String(track.stable)}", so the stable Service would select the canary pods too; give them different values`,
      severity: 'error',
    });
  for (const [field, value] of placeholderFields(e)) {
    const unknown = [...value.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]).filter((p) => p !== 'name');
    if (unknown.length > 0)
      out.push({
        ...at(field),
        message: `unknown placeholder ${unknown.map((p) => `{${p}}`).join(', ')} in "${value}"; only {name} is filled in (the app's name)`,
        severity: 'error',
      });
  }
  return out;
}

/** The entry's strings where `{name}` is filled in, with their paths. */
function placeholderFields(e: Record<string, unknown>): [readonly (string | number)[], string][] {
  const fields: [readonly (string | number)[], string][] = [];
  for (const key of ['output', 'build']) if (typeof e[key] === 'string') fields.push([[key], e[key] as string]);
  const health = isObject(e.health) ? e.health : {};
  for (const list of ['statuses', 'checkRuns'])
    if (Array.isArray(health[list]))
      (health[list] as unknown[]).forEach((v, i) => {
        if (typeof v === 'string') fields.push([['health', list, i], v]);
      });
  return fields;
}
