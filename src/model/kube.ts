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

/** Deep copy of JSON data; the pure core never mutates its inputs. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
