import { isObject } from '../model/kube';
import { canonicalJson } from '../render/revision';

/** An output file that is not what rollgen wrote for the recorded state. */
export interface Drift {
  readonly file: string;
  /**
   * state: the status file's rollouts (steps, phases, revisions) were edited by hand; unlisted: the
   * output kustomization no longer lists files rollgen wrote (`unlisted`), so they are not applied.
   */
  readonly kind: 'changed' | 'missing' | 'state' | 'unlisted';
  readonly unlisted?: readonly string[];
  /** The fields that differ, when rollgen can render the recorded state again (its source is unchanged). */
  readonly fields?: readonly FieldChange[];
}

export interface FieldChange {
  readonly path: readonly (string | number)[];
  readonly rendered: unknown;
  readonly found: unknown;
}

/** Files whose digest differs from the one recorded when rollgen wrote them. Pure. */
export function changedFiles(
  recorded: Readonly<Record<string, string>>,
  current: Readonly<Record<string, string>>,
): { file: string; kind: Drift['kind'] }[] {
  return Object.keys(recorded)
    .sort()
    .flatMap((file): { file: string; kind: Drift['kind'] }[] => {
      if (current[file] === undefined) return [{ file, kind: 'missing' }];
      return current[file] === recorded[file] ? [] : [{ file, kind: 'changed' }];
    });
}

const MAX_FIELDS = 8;

/** The leaf fields where `found` differs from `rendered`, in document order. Pure. */
export function fieldChanges(rendered: unknown, found: unknown, at: readonly (string | number)[] = []): FieldChange[] {
  if (canonicalJson(rendered) === canonicalJson(found)) return [];
  if (isObject(rendered) && isObject(found)) {
    const keys = [...new Set([...Object.keys(rendered), ...Object.keys(found)])];
    return keys.flatMap((k) => fieldChanges(rendered[k], found[k], [...at, k])).slice(0, MAX_FIELDS);
  }
  if (Array.isArray(rendered) && Array.isArray(found) && rendered.length === found.length)
    return rendered.flatMap((r, i) => fieldChanges(r, found[i], [...at, i])).slice(0, MAX_FIELDS);
  return [{ path: at, rendered, found }];
}

export function describeField(c: FieldChange): string {
  const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));
  const path = c.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
  return `${path || '(whole object)'}: rendered ${show(c.rendered)}, found ${show(c.found)}`;
}

/**
 * The output kustomization as a hand left it: deleted, or no longer listing files rollgen wrote
 * (`owned`, those still in the output). Either way what is applied is not the step rollgen wrote.
 */
export function kustomizationDrift(listed: readonly string[] | undefined, owned: readonly string[]): Drift | undefined {
  if (owned.length === 0) return undefined;
  if (listed === undefined) return { file: 'kustomization.yaml', kind: 'missing' };
  const unlisted = owned.filter((f) => !listed.includes(f));
  return unlisted.length > 0 ? { file: 'kustomization.yaml', kind: 'unlisted', unlisted } : undefined;
}
