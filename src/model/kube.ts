/** A Kubernetes object as plain JSON data. Everything past the header is the user's and kept as is. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: KubeMetadata;
  readonly [field: string]: unknown;
}

export interface KubeMetadata {
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly [field: string]: unknown;
}

/** kind/namespace/name; group is left out on purpose so a Deployment written as extensions/v1beta1 still matches. */
export function objectKey(o: { kind: string; metadata: { name: string; namespace?: string } }): string {
  return `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep copy of JSON data, exactly as `JSON.parse(JSON.stringify(value))`; the pure core never
 * mutates its inputs. Plain data (what YAML parses to) is copied directly, without the text in
 * between (three times faster: advance copies every app's workloads); anything else takes the JSON way.
 */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (copyJson(value, 0) as T);
}

/** Past this depth the JSON way decides (and reports a cycle as it always did). */
const MAX_DIRECT_DEPTH = 100;

function copyJson(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null; // -0 + 0 is 0, as JSON writes it
  const own = value as { toJSON?: unknown };
  if (depth > MAX_DIRECT_DEPTH || typeof own.toJSON === 'function') return JSON.parse(JSON.stringify(value));
  if (Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = skipped(value[i]) ? null : copyJson(value[i], depth + 1);
    return out;
  }
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto !== Object.prototype && proto !== null) return JSON.parse(JSON.stringify(value));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value as object)) {
    const v = (value as Record<string, unknown>)[key];
    if (skipped(v)) continue;
    // A `__proto__` key stays a plain key, as JSON.parse makes it (an assignment would set the prototype).
    if (key === '__proto__') Object.defineProperty(out, key, { value: copyJson(v, depth + 1), ...PLAIN });
    else out[key] = copyJson(v, depth + 1);
  }
  return out;
}

const PLAIN = { enumerable: true, writable: true, configurable: true } as const;

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';
