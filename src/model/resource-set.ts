import { Origin, unknownOrigin } from '../diagnostics';
import { KubeObject, objectKey } from './kube';

export interface SourceObject {
  readonly object: KubeObject;
  readonly origin: Origin;
  /** Position of a field path inside the object's document, for precise diagnostics. */
  readonly locate: (path: readonly (string | number)[]) => Origin;
}

/** The app's objects, indexed by kind/namespace/name, in input order. */
export class ResourceSet {
  private readonly byKey = new Map<string, SourceObject>();

  /**
   * `rejected`: kind/namespace/name of the app's objects left out for errors already reported, so a
   * rule looking for one of them does not add "not among the app's manifests" to that report.
   */
  constructor(
    readonly items: readonly SourceObject[],
    readonly defaultNamespace?: string,
    private readonly rejected: ReadonlySet<string> = new Set(),
  ) {
    for (const item of items) this.byKey.set(objectKey(item.object), item);
  }

  /** Whether the app holds this object but it was left out for its own errors (see the constructor). */
  wasRejected(kind: string, name: string, namespace?: string): boolean {
    return this.keys(kind, name, namespace).some((k) => this.rejected.has(k));
  }

  find(kind: string, name: string, namespace?: string): SourceObject | undefined {
    const [key, plain] = this.keys(kind, name, namespace);
    return this.byKey.get(key) ?? this.byKey.get(plain);
  }

  /** The namespaces (none: '') of the app's objects of this kind and name: where a lookup in another one would find it. */
  namespacesOf(kind: string, name: string): string[] {
    return this.items
      .filter((i) => i.object.kind === kind && i.object.metadata.name === name)
      .map((i) => i.object.metadata.namespace ?? '');
  }

  /** The object's key in the default namespace, then as written (no namespace: none). */
  private keys(kind: string, name: string, namespace?: string): [string, string] {
    return [`${kind}/${namespace ?? this.defaultNamespace ?? ''}/${name}`, `${kind}/${namespace ?? ''}/${name}`];
  }

  /**
   * The same set with `objects` laid over it: same kind/namespace/name replaces the object (keeping
   * the source position), new ones are added. Lets a later rollout patch what an earlier one rendered.
   */
  overlay(objects: readonly KubeObject[]): ResourceSet {
    if (objects.length === 0) return this;
    const replaced = new Map(objects.map((o) => [objectKey(o), o]));
    const items = this.items.map((i) => {
      const o = replaced.get(objectKey(i.object));
      replaced.delete(objectKey(i.object));
      return o ? { ...i, object: o } : i;
    });
    const added = [...replaced.values()].map((object) => ({
      object,
      origin: unknownOrigin,
      locate: () => unknownOrigin,
    }));
    return new ResourceSet([...items, ...added], this.defaultNamespace, this.rejected);
  }

  originOf(kind: string, name: string): Origin {
    return this.find(kind, name)?.origin ?? unknownOrigin;
  }
}
