import { isObject } from '../model/kube';
import { ParsedDocument, parseYamlStream } from './parse';

/**
 * Objects of a built source (kustomize, `build:`) point back at the file and lines they were
 * written in, matched by kind and name (then kind and `metadata.name` alone, as a build may add a
 * namespace). An object not found there (generated, renamed by a prefix) keeps its place in the
 * build output. Fields a build added point at the nearest field the original has. Pure.
 */
export function pointBack(
  built: readonly ParsedDocument[],
  originals: readonly { path: string; text: string }[],
): ParsedDocument[] {
  const index = new Map<string, ParsedDocument>();
  for (const f of originals) {
    for (const d of parseYamlStream(f.path, f.text).documents) {
      for (const key of keysOf(d.value)) if (!index.has(key)) index.set(key, d);
    }
  }
  return built.map((d) => {
    const [exact, loose] = keysOf(d.value);
    const original = (exact && index.get(exact)) ?? (loose && index.get(loose));
    return original ? { ...d, file: original.file, origin: original.origin, locate: original.locate } : d;
  });
}

/** `kind/namespace/name` and `kind//name`. */
function keysOf(value: unknown): string[] {
  if (!isObject(value) || typeof value.kind !== 'string' || !isObject(value.metadata)) return [];
  const name = value.metadata.name;
  if (typeof name !== 'string') return [];
  const ns = typeof value.metadata.namespace === 'string' ? value.metadata.namespace : '';
  return [`${value.kind}/${ns}/${name}`, `${value.kind}//${name}`];
}
