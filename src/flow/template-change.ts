import { isObject } from '../model/kube';

type Json = Record<string, unknown>;

/** One container's image before and after; `from` is null for a container the new version adds, `to` for one it drops. */
export interface ImageChange {
  readonly container: string;
  readonly from: string | null;
  readonly to: string | null;
  readonly changed: boolean;
}

/** What a new pod template changes, for a reviewer: images per container, and every other changed field by path. */
export interface TemplateChange {
  readonly images: readonly ImageChange[];
  /** Changed fields other than images, at the depth a reviewer reads them: `spec.containers[app].env`, `metadata.annotations`. */
  readonly fields: readonly string[];
}

const CONTAINER_LISTS = ['initContainers', 'containers'] as const;

/** The difference between two pod templates (track label already stripped from both). Pure. */
export function templateChange(from: Json, to: Json): TemplateChange {
  const images: ImageChange[] = [];
  const fields: string[] = [];
  for (const list of CONTAINER_LISTS) {
    const before = containers(from, list);
    const after = containers(to, list);
    for (const name of union(before.keys(), after.keys())) {
      const a = before.get(name);
      const b = after.get(name);
      const label = list === 'containers' ? name : `${name} (init)`;
      const image = (c: Json | undefined) => (c && typeof c.image === 'string' ? c.image : null);
      images.push({ container: label, from: image(a), to: image(b), changed: image(a) !== image(b) });
      if (!a || !b) continue;
      for (const key of changedKeys(withoutImage(a), withoutImage(b))) fields.push(`spec.${list}[${name}].${key}`);
    }
  }
  for (const key of changedKeys(from.metadata, to.metadata)) fields.push(`metadata.${key}`);
  const rest = (t: Json) => (isObject(t.spec) ? omit(t.spec, CONTAINER_LISTS) : {});
  for (const key of changedKeys(rest(from), rest(to))) fields.push(`spec.${key}`);
  return { images, fields };
}

function containers(template: Json, list: string): Map<string, Json> {
  const spec = isObject(template.spec) ? template.spec : {};
  const items = Array.isArray(spec[list]) ? (spec[list] as unknown[]) : [];
  return new Map(items.filter(isObject).map((c, i) => [typeof c.name === 'string' ? c.name : `#${i}`, c]));
}

function union(a: Iterable<string>, b: Iterable<string>): string[] {
  return [...new Set([...a, ...b])];
}

function withoutImage(c: Json): Json {
  return omit(c, ['image']);
}

function omit(o: Json, keys: readonly string[]): Json {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
}

/** Keys whose values differ (added, removed or changed), in the order of `a` then new ones of `b`. */
function changedKeys(a: unknown, b: unknown): string[] {
  const x = isObject(a) ? a : {};
  const y = isObject(b) ? b : {};
  return union(Object.keys(x), Object.keys(y)).filter((k) => !sameJson(x[k], y[k]));
}

/** Deep equality of JSON data, key order ignored (YAML key order means nothing to Kubernetes). */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = union(Object.keys(a), Object.keys(b));
    return keys.every((k) => sameJson(a[k], b[k]));
  }
  return a === b;
}
