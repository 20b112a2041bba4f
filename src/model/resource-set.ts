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

  constructor(readonly items: readonly SourceObject[], private readonly defaultNamespace?: string) {
    for (const item of items) this.byKey.set(objectKey(item.object), item);
  }

  find(kind: string, name: string, namespace?: string): SourceObject | undefined {
    return this.byKey.get(`${kind}/${namespace ?? this.defaultNamespace ?? ''}/${name}`) ?? this.byKey.get(`${kind}/${namespace ?? ''}/${name}`);
  }


  originOf(kind: string, name: string): Origin {
    return this.find(kind, name)?.origin ?? unknownOrigin;
  }
}
