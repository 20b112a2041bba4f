/**
 * GitHub's published REST description (@octokit/openapi's api.github.com.json) as the fake server's
 * contract: every route it serves must exist there with that method, and every request body, query
 * parameter and response body it sees is validated with ajv against the operation's schema. The
 * fake reads an extract of it (github-openapi.json, made by scripts/github-openapi.mjs, which names
 * the package version): the index of every operation GitHub documents, and the operations the fake
 * serves in full with the components they reference. Only the schemas of the operations a test
 * exchanges are compiled (components are resolved on demand).
 */
import Ajv, { ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const EXTRACT_FILE = join(__dirname, 'github-openapi.json');
const ROOT_ID = 'api.github.com';

interface Operation {
  readonly operationId: string;
  readonly parameters?: readonly { $ref?: string; name?: string; in?: string }[];
  readonly requestBody?: { content: Record<string, { schema: object }> };
  readonly responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }> }>;
}
interface Spec {
  /** Every operation in GitHub's description: path -> method -> operationId. */
  readonly operations: Record<string, Record<string, string>>;
  /** The operations the fake serves, as GitHub describes them. */
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: {
    parameters: Record<string, { name: string; in: string }>;
    responses: Record<string, { content?: Record<string, { schema: object }> }>;
  };
}

let spec: Spec | undefined;
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction | null>();

function load(): { spec: Spec; ajv: Ajv } {
  if (!spec || !ajv) {
    spec = JSON.parse(readFileSync(EXTRACT_FILE, 'utf8')) as Spec;
    // strict: false because OpenAPI adds keywords (example, discriminator...) that are not JSON Schema;
    // `nullable` is understood by ajv itself. Formats are checked loosely: shape, not semantics.
    ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, formats: FORMATS });
    allowNullInEnums(spec.components);
    ajv.addSchema({ $id: ROOT_ID, components: spec.components }, undefined, undefined, false);
  }
  return { spec, ajv };
}

/** OpenAPI 3.0's `nullable` also admits null into an `enum`; ajv applies it to `type` only. */
function allowNullInEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(allowNullInEnums);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as { nullable?: boolean; enum?: unknown[] };
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  Object.values(node).forEach(allowNullInEnums);
}

const FORMATS = {
  'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/,
  uri: /^[a-z][a-z0-9+.-]*:\S*$/i,
  'uri-template': /^\S*$/,
  email: /^[^@\s]+@[^@\s]+$/,
  int64: true,
  int32: true,
  date: /^\d{4}-\d\d-\d\d$/,
  binary: true,
  hostname: /^\S+$/,
  'ip/cidr': true,
  repo: true,
  uuid: /^[0-9a-f-]{36}$/i,
  'repo.nwo': /^[^/\s]+\/[^/\s]+$/,
} as const;

/** The operation GitHub documents for `method path`: its operationId, or undefined when GitHub has none. */
export function operationId(method: string, path: string): string | undefined {
  return load().spec.operations[path]?.[method.toLowerCase()];
}

/** A documented operation in full; GitHub's routes the extract does not hold are a stale extract. */
function operation(method: string, path: string): Operation | string {
  if (!operationId(method, path)) return `${method} ${path}: not in GitHub's OpenAPI description`;
  const op = load().spec.paths[path]?.[method.toLowerCase()];
  return op ?? `${method} ${path}: not in ${EXTRACT_FILE}; run node scripts/github-openapi.mjs`;
}

/** Refs inside an operation are relative to the spec; point them at the registered root. */
function compile(key: string, schema: object): ValidateFunction {
  const cached = compiled.get(key);
  if (cached) return cached;
  const fn = load().ajv.compile(
    JSON.parse(JSON.stringify(schema).split('"#/components/').join(`"${ROOT_ID}#/components/`)),
  );
  compiled.set(key, fn);
  return fn;
}

function responseSchema(op: Operation, status: number): object | undefined {
  const entry = op.responses[String(status)];
  if (!entry) return undefined;
  const resolved = entry.$ref ? load().spec.components.responses[entry.$ref.split('/').pop() ?? ''] : entry;
  return resolved?.content?.['application/json']?.schema;
}

/** Problems with a response the fake is about to send; a status the operation does not declare is one. */
export function checkResponse(method: string, path: string, status: number, body: unknown): string[] {
  const op = operation(method, path);
  if (typeof op === 'string') return [op];
  if (status >= 500) return []; // server errors are injected faults; GitHub documents none of them
  const schema = responseSchema(op, status);
  if (!schema)
    return status === 204 || status === 304 ? [] : [`${method} ${path}: status ${status} is not a documented response`];
  const validate = compile(`${method} ${path} ${status}`, schema);
  return validate(body)
    ? []
    : (validate.errors ?? []).map((e) => `${method} ${path} ${status} response${e.instancePath}: ${e.message}`);
}

/** Problems with what the client sent: unknown query parameters, a body that breaks the schema. */
export function checkRequest(method: string, path: string, query: URLSearchParams, body: unknown): string[] {
  const op = operation(method, path);
  if (typeof op === 'string') return [op];
  const known = new Set(
    (op.parameters ?? [])
      .map((p) => (p.$ref ? load().spec.components.parameters[p.$ref.split('/').pop() ?? ''] : p))
      .filter((p) => p?.in === 'query')
      .map((p) => p?.name),
  );
  const problems = [...query.keys()]
    .filter((k) => !known.has(k))
    .map((k) => `${method} ${path}: unknown query parameter ${k}`);
  const schema = op.requestBody?.content['application/json']?.schema;
  if (schema && body !== undefined) {
    const validate = compile(`${method} ${path} request`, schema);
    if (!validate(body))
      problems.push(...(validate.errors ?? []).map((e) => `${method} ${path} request${e.instancePath}: ${e.message}`));
  }
  return problems;
}
