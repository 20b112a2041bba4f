import { Document, stringify } from 'yaml';

/** The one YAML output setup: same data, same bytes. */
const OPTIONS = {
  // 1.1 rules quote strings such as on/yes/off that kubectl's YAML 1.1 parser would read as booleans.
  version: '1.1',
  lineWidth: 0,
  minContentWidth: 0,
  indent: 2,
  indentSeq: true,
  aliasDuplicateObjects: false,
  singleQuote: false,
} as const;

/**
 * A value has no directives to keep (no %YAML or %TAG, no `---`): `directives: false` only skips the
 * walk over the whole document that looks for tag handles to declare.
 */
const VALUE_OPTIONS = { ...OPTIONS, directives: false } as const;

/**
 * One Document for every value: stringify builds a Document and its YAML 1.1 schema anew per value
 * (a quarter of serializing a rendered step). Its contents are replaced each time; nothing else of a
 * value stays in it.
 */
let shared: Document | undefined;

export function serializeValue(value: unknown): string {
  if (value === undefined) return stringify(value, VALUE_OPTIONS);
  const doc = (shared ??= new Document(null, VALUE_OPTIONS));
  doc.contents = null; // createNode collects the anchor names of what the document holds
  doc.contents = doc.createNode(value, VALUE_OPTIONS);
  return doc.toString(VALUE_OPTIONS);
}

export function serializeDocuments(values: readonly unknown[]): string {
  return values.map((v) => serializeValue(v)).join('---\n');
}

/** Serializes an edited user Document (comments kept) with the same options. */
export function serializeDocument(doc: Document): string {
  return doc.toString(OPTIONS);
}
