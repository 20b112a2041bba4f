import { isObject, KubeObject } from '../../src/model/kube';
import type { SourceObject } from '../../src/model/resource-set';
import type { GeneratorContext } from '../../src/contract/generator';

/** Argo `trafficRouting.appMesh`, as written. */
export interface AppMeshOptions {
  readonly virtualService: { readonly name: string; readonly routes?: readonly string[] };
  readonly virtualNodeGroup: {
    readonly canaryVirtualNodeRef: { readonly name: string };
    readonly stableVirtualNodeRef: { readonly name: string };
  };
}

export type Ctx = GeneratorContext<AppMeshOptions>;
export type Json = Record<string, unknown>;

export { default as optionsSchema } from './options.schema.json';

export const APP_MESH_GROUP = 'appmesh.k8s.aws';
/** The route kinds of a VirtualRouter route, each with `action.weightedTargets`. */
export const ROUTE_TYPES = ['httpRoute', 'http2Route', 'grpcRoute', 'tcpRoute'];

export const isAppMesh = (o: KubeObject, kind: string): boolean =>
  o.kind === kind && o.apiVersion.split('/')[0] === APP_MESH_GROUP;
export const specOf = (o: KubeObject): Json => (isObject(o.spec) ? o.spec : {});
export const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
export const objOf = (v: unknown): Json => (isObject(v) ? v : {});

export function findAppMesh(ctx: Ctx, kind: string, name: string): SourceObject | undefined {
  const found = ctx.resources.find(kind, name, ctx.rollout.namespace);
  return found && isAppMesh(found.object, kind) ? found : undefined;
}

/** The VirtualRouter a VirtualService's provider names, if it names one. */
export const routerNameOf = (vs: KubeObject): string | undefined => {
  const ref = objOf(objOf(objOf(specOf(vs).provider).virtualRouter).virtualRouterRef);
  return typeof ref.name === 'string' ? ref.name : undefined;
};

/** The weighted targets of one VirtualRouter route, whatever its type. */
export function targetsOf(route: Json): { type: string; targets: Json[] } | undefined {
  const type = ROUTE_TYPES.find((t) => isObject(route[t]));
  return type ? { type, targets: listOf(objOf(objOf(route[type]).action).weightedTargets) } : undefined;
}

export const targetNode = (target: Json): string => String(objOf(target.virtualNodeRef).name ?? '');

/** The label Argo's App Mesh reconciler owns in both VirtualNodes' podSelector (UpdateHash). */
export const HASH_LABEL = 'rollouts-pod-template-hash';

export const selectsArgoHash = (node: KubeObject): boolean =>
  HASH_LABEL in objOf(objOf(specOf(node).podSelector).matchLabels);
