import type { ErrorObject } from 'ajv';
import { Diagnostic, Origin, diagnosticAt, sortDiagnostics } from '../diagnostics';
import { ParsedDocument } from '../yaml/parse';
import { validatorFor } from './generated';
import { suggestName } from '../suggest';

/** Input formats with a JSON Schema in src/spec/schemas (precompiled by scripts/compile-schemas.mjs). */
export const SCHEMA_IDS = [
  'kruise-rollout-v1alpha1',
  'kruise-rollout-v1beta1',
  'kruise-trafficrouting',
  'argo-rollout',
  'rollgen-config',
  'rollgen-request-coloring',
  'rollgen-route-template',
] as const;

export type SchemaId = (typeof SCHEMA_IDS)[number];

type Path = (string | number)[];

/** Checks one parsed document against a schema; every problem is reported, each at its own line:col. */
/** The field names known under a parent field pattern (`spec.strategy.canary`, `...steps[]`), for "did you mean". */
export type KnownFields = (parent: string) => readonly string[];

export function validateSchema(id: SchemaId, doc: ParsedDocument, known?: KnownFields): Diagnostic[] {
  const validate = validatorFor(id);
  if (validate(doc.value)) return [];
  return describeSchemaErrors(validate.errors ?? [], doc, known);
}

/** ajv errors of one document as located diagnostics, each at its own line:col. */
export function describeSchemaErrors(
  errors: readonly ErrorObject[],
  doc: ParsedDocument,
  known?: KnownFields,
): Diagnostic[] {
  const specific = dropGenericErrors(mergeAlternatives(errors));
  return sortDiagnostics(dedupe(specific.map((e) => describe(e, doc, known))));
}

/** `anyOf: [{required: [a]}, {required: [b]}]` fails with one error per branch; say "one of a or b" once instead. */
function mergeAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  const out: ErrorObject[] = [];
  const groups = new Map<string, ErrorObject>();
  for (const e of errors) {
    const branch = e.keyword === 'required' ? /^(.*\/(?:anyOf|oneOf))\/\d+\/required$/.exec(e.schemaPath) : null;
    if (!branch) {
      out.push(e);
      continue;
    }
    const key = `${e.instancePath}\u0000${branch[1]}`;
    const group = groups.get(key);
    if (group) {
      (group.params.fields as string[]).push(e.params.missingProperty);
      continue;
    }
    const merged: ErrorObject = {
      ...e,
      keyword: 'requiredAlternatives',
      schemaPath: branch[1],
      params: { fields: [e.params.missingProperty] },
    };
    groups.set(key, merged);
    out.push(merged);
  }
  return out;
}

const GENERIC = new Set(['anyOf', 'oneOf', 'if']);

/** "must match a schema in anyOf" says nothing the branch errors at or below its path do not say better. */
function dropGenericErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((e) => !GENERIC.has(e.keyword));
  const covered = (g: ErrorObject) =>
    specific.some((e) => e.instancePath === g.instancePath || e.instancePath.startsWith(`${g.instancePath}/`));
  return errors.filter((e) => !GENERIC.has(e.keyword) || !covered(e));
}

function dedupe(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.line}:${d.col}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describe(e: ErrorObject, doc: ParsedDocument, known?: KnownFields): Diagnostic {
  const path = pointerToPath(e.instancePath, doc.value);
  if (e.keyword === 'additionalProperties') {
    const key = String(e.params.additionalProperty);
    const near = known && suggestName(key, known(fieldPattern(path)));
    return located(keyOrigin(doc, path, key), path, `unknown field "${key}"${near ? ` (did you mean ${near}?)` : ''}`);
  }
  if (e.keyword === 'false schema' && path.length > 0) {
    // Only used as `dependencies: {a: {properties: {b: false}}}`: "b" may not be set together with "a".
    const parent = path.slice(0, -1);
    const key = String(path[path.length - 1]);
    const other = /\/dependencies\/([^/]+)\/properties\//.exec(e.schemaPath)?.[1];
    const text = other
      ? `"${key}" cannot be set together with "${unescapePointer(other)}"`
      : `field "${key}" is not allowed here`;
    return located(keyOrigin(doc, parent, key), parent, text);
  }
  return located(doc.locate(path), path, explain(e, valueAt(doc.value, path)));
}

/** `['spec', 'steps', 0]` as a ledger pattern: `spec.steps[]`. */
function fieldPattern(path: Path): string {
  return path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[]` : p === '' ? k : `${p}.${k}`), '');
}

function located(origin: Origin, path: Path, text: string): Diagnostic {
  const where = formatPath(path);
  return diagnosticAt(origin, where ? `${where}: ${text}` : text);
}

const PATTERN_HINTS: Readonly<Record<string, string>> = {
  // Used only on int-or-percent fields (replicas, failureThreshold), so the hint names both forms.
  '^[0-9]+%$': 'must be an integer or a percentage such as "20%"',
  '^[0-9]+(\\.[0-9]+)?%$': 'must be a percentage such as "20%"',
  '^[0-9]+(s|m|h)?$': 'must be a duration such as 30, "30s", "10m" or "1h"',
  '^(?=.{1,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?$':
    'must be a DNS-1123 label: at most 63 lower-case letters, digits or "-", starting and ending with a letter or digit',
};

function explain(e: ErrorObject, value: unknown): string {
  const p = e.params;
  switch (e.keyword) {
    case 'required':
      return `missing required field "${p.missingProperty}"`;
    case 'requiredAlternatives':
      return `must set one of ${(p.fields as string[]).map((f) => `"${f}"`).join(' or ')}`;
    case 'dependencies':
      return `missing field "${p.missingProperty}" (required when "${p.property}" is set)`;
    case 'type':
      return `must be ${[p.type].flat().map(typeName).join(' or ')}, found ${typeName(typeOf(value))}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
      return PATTERN_HINTS[p.pattern] ?? `must match the pattern ${p.pattern}`;
    case 'minimum':
    case 'maximum':
      return `${e.message}, found ${JSON.stringify(value)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `${e.message}`;
    case 'minItems':
      return `must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${p.limit} item${p.limit === 1 ? '' : 's'}, found ${(value as unknown[]).length}`;
    case 'minProperties':
      return p.limit === 1 ? 'must not be empty' : `${e.message}`;
    case 'maxProperties':
      return maxPropertiesText(p.limit as number, value);
    case 'oneOf':
      return 'must match exactly one of the allowed forms';
    default:
      return e.message ?? `is invalid (${e.keyword})`;
  }
}

function maxPropertiesText(limit: number, value: unknown): string {
  const keys = isMap(value) ? Object.keys(value) : [];
  return limit === 1
    ? `must set exactly one field, found ${keys.length}: ${keys.join(', ')}`
    : `must have at most ${limit} fields, found ${keys.length}`;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};

function typeName(t: string): string {
  return TYPE_NAMES[t] ?? t;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** `/spec/steps/0/a~1b` -> ['spec', 'steps', 0, 'a/b']; a segment is a number only where the data is a list. */
function pointerToPath(pointer: string, root: unknown): Path {
  const path: Path = [];
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = unescapePointer(raw);
    const segment = Array.isArray(node) && /^\d+$/.test(key) ? Number(key) : key;
    path.push(segment);
    node = child(node, segment);
  }
  return path;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function child(node: unknown, segment: string | number): unknown {
  if (Array.isArray(node) && typeof segment === 'number') return node[segment];
  return isMap(node) ? node[segment] : undefined;
}

function valueAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>(child, root);
}

function isMap(v: unknown): v is Record<string | number, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Where key `key` of the mapping at `parent` is written; `locate` only knows where values start.
 * A block mapping starts at its first key and all its keys share that column; a scalar or flow
 * value follows `key: ` on the key's line, a block collection starts below it (assumed on the next
 * line: a comment line in between would be reported instead).
 */
function keyOrigin(doc: ParsedDocument, parent: Path, key: string): Origin {
  const container = valueAt(doc.value, parent);
  const start = doc.locate(parent);
  if (!isMap(container) || Object.keys(container)[0] === key) return start;
  const value = doc.locate([...parent, key]);
  if (value.line === start.line) return value; // a one-line flow mapping: the value is close enough
  const v = container[key];
  const isBlock =
    typeof v === 'object' && v !== null && Object.keys(v).length > 0 && value.col < start.col + key.length + 2;
  return { ...value, line: isBlock ? value.line - 1 : value.line, col: start.col };
}

function formatPath(path: Path): string {
  return path
    .map((s, i) =>
      typeof s === 'number'
        ? `[${s}]`
        : /^[A-Za-z_][\w-]*$/.test(s)
          ? `${i === 0 ? '' : '.'}${s}`
          : `[${JSON.stringify(s)}]`,
    )
    .join('');
}
