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

  constructor(
    readonly items: readonly SourceObject[],
    private readonly defaultNamespace?: string,
  ) {
    for (const item of items) this.byKey.set(objectKey(item.object), item);
  }

  find(kind: string, name: string, namespace?: string): SourceObject | undefined {
    return (
      this.byKey.get(`${kind}/${namespace ?? this.defaultNamespace ?? ''}/${name}`) ??
      this.byKey.get(`${kind}/${namespace ?? ''}/${name}`)
    );
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
    return new ResourceSet([...items, ...added], this.defaultNamespace);
  }

  originOf(kind: string, name: string): Origin {
    return this.find(kind, name)?.origin ?? unknownOrigin;
  }
}
