import { Value } from './builtins';

/** One step into a JSON value: a field name or an array index. */
export type PathSegment = string | number;

/**
 * The part of Kubernetes JSONPath (what Argo's web provider takes) that names one value:
 * `{$.data.ok}`, `{.items[0].value}`, `{$['a-b'].c}`, `{$}`. Filters, wildcards, slices and ranges
 * are refused at plan time, since they select several values and Argo takes only the first.
 */
export function parseJsonPath(source: string): { path: PathSegment[] } | { error: string } {
  const m = /^\{\s*(.*?)\s*\}$/.exec(source.trim());
  if (!m) return { error: `jsonPath "${source}" must be wrapped in braces, e.g. {$.data.value}` };
  let rest = m[1].replace(/^\$/, '');
  const path: PathSegment[] = [];
  while (rest !== '') {
    const field = /^\.([A-Za-z_][\w-]*)/.exec(rest);
    const index = /^\[(\d+)\]/.exec(rest);
    const quoted = /^\[\s*'([^']*)'\s*\]|^\[\s*"([^"]*)"\s*\]/.exec(rest);
    const step = field ?? index ?? quoted;
    if (!step)
      return {
        error: `jsonPath "${source}": rollgen reads one value by fields and indexes ({$.a.b[0]}); "${rest}" is not supported`,
      };
    path.push(field ? field[1] : index ? Number(index[1]) : (quoted![1] ?? quoted![2]));
    rest = rest.slice(step[0].length);
  }
  return { path };
}

export function readPath(value: Value, path: readonly PathSegment[]): Value {
  let v = value;
  for (const seg of path) {
    if (typeof seg === 'number' && Array.isArray(v) && seg < v.length) v = v[seg];
    else if (typeof seg === 'string' && v && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, seg))
      v = v[seg];
    else throw new Error(`could not find JSONPath in body: ${JSON.stringify(seg)} is not there`);
  }
  return v;
}
