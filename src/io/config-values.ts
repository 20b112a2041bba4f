import { Diagnostic, Origin } from '../diagnostics';
import { isObject } from '../model/kube';

type At = (field: readonly (string | number)[]) => Origin;

/**
 * Values of one rollgen.yaml app entry that the schema cannot judge: a track label whose stable and
 * canary values are the same (each Service would select both versions' pods), and placeholders
 * other than `{name}` and a target's `{target}` (kept as written, they would name a directory or a check nobody meant).
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
  const targets = Array.isArray(e.targets);
  for (const [field, value] of placeholderFields(e)) {
    const placeholders = [...value.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
    const unknown = placeholders.filter((p) => p !== 'name' && p !== 'target');
    if (!targets && placeholders.includes('target'))
      out.push({
        ...at(field),
        message: `{target} in "${value}", but this app has no targets:; list the app's targets (docs/fleet.md) or write the path itself`,
        severity: 'error',
      });
    if (unknown.length > 0)
      out.push({
        ...at(field),
        message: `unknown placeholder ${unknown.map((p) => `{${p}}`).join(', ')} in "${value}"; ${targets ? "only {name} (the app's name) and {target} (the target's) are filled in" : "only {name} is filled in (the app's name)"}`,
        severity: 'error',
      });
  }
  return out;
}

/** The entry's strings where `{name}` is filled in, with their paths. */
function placeholderFields(e: Record<string, unknown>): [readonly (string | number)[], string][] {
  const fields: [readonly (string | number)[], string][] = [];
  if (typeof e.source === 'string' && e.source.includes('{target}')) fields.push([['source'], e.source]);
  for (const key of ['output', 'build']) if (typeof e[key] === 'string') fields.push([[key], e[key] as string]);
  const health = isObject(e.health) ? e.health : {};
  for (const list of ['statuses', 'checkRuns'])
    if (Array.isArray(health[list]))
      (health[list] as unknown[]).forEach((v, i) => {
        if (typeof v === 'string') fields.push([['health', list, i], v]);
      });
  return fields;
}
