import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';

/** The upstream CRDs (../shared/crds beside the checkout): the authority on which fields users can write. */
export const CRD_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'crds');

interface Schema {
  readonly properties?: Record<string, Schema>;
  readonly items?: Schema;
  readonly additionalProperties?: Schema | boolean;
}

/**
 * Every field path under `spec` of one served version, in ledger notation: `a.b`, `list[]` for
 * items, `map.*` for the values of a map whose values have fields of their own.
 */
export function crdFieldPaths(file: string, version: string): string[] {
  const docs = parseAllDocuments(fs.readFileSync(path.join(CRD_DIR, file), 'utf8')).map((d) => d.toJS());
  const served = docs.flatMap((d) => d.spec.versions).find((v: { name: string }) => v.name === version);
  if (!served) throw new Error(`${file} serves no version ${version}`);
  const out: string[] = [];
  const walk = (s: Schema | undefined, p: string): void => {
    if (!s) return;
    out.push(p);
    for (const [k, child] of Object.entries(s.properties ?? {})) walk(child, `${p}.${k}`);
    if (s.items) walk(s.items, `${p}[]`);
    const values = s.additionalProperties;
    if (typeof values === 'object' && (values.properties || values.items)) walk(values, `${p}.*`);
  };
  walk(served.schema.openAPIV3Schema.properties.spec, 'spec');
  return out;
}
