/**
 * Options of the istio generator as the normalizers hand them over: Argo `trafficRouting.istio`
 * as written, or Kruise `customNetworkRefs` (every ref a networking.istio.io VirtualService or
 * DestinationRule) as `{refs}`. `targets` turns either into one shape the rest of the generator reads.
 */
export interface IstioOptions {
  readonly virtualService?: ArgoVirtualService;
  readonly virtualServices?: readonly ArgoVirtualService[];
  readonly destinationRule?: ArgoDestinationRule;
  readonly refs?: readonly ObjectRef[];
}

export interface ArgoVirtualService {
  readonly name: string;
  readonly routes?: readonly string[];
  readonly tlsRoutes?: readonly { readonly port?: number; readonly sniHosts?: readonly string[] }[];
  readonly tcpRoutes?: readonly { readonly port?: number }[];
}

export interface ArgoDestinationRule {
  readonly name: string;
  readonly canarySubsetName: string;
  readonly stableSubsetName: string;
  readonly additionalSubsetNames?: readonly string[];
}

export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

/** The schema lives in JSON so scripts/compile-schemas.mjs can precompile it. */
export { default as optionsSchema } from './options.schema.json';

export const ISTIO_GROUP = 'networking.istio.io';
/** Kruise's DestinationRule script always names the canary subset `canary`. */
export const KRUISE_CANARY_SUBSET = 'canary';

/**
 * Which rules a VirtualService target weights. `select` lists Argo's named routes; undefined
 * means Kruise's rule: every rule without a `match` that routes to the stable Service.
 */
export interface VsTarget {
  readonly name: string;
  readonly namespace?: string;
  readonly select?: {
    readonly http?: readonly string[];
    readonly tls: readonly { readonly port?: number; readonly sniHosts?: readonly string[] }[];
    readonly tcp: readonly { readonly port?: number }[];
  };
  /** Group of the Kruise ref; Argo names no group, the kind is always networking.istio.io. */
  readonly group: string;
}

export interface DrTarget {
  readonly name: string;
  readonly namespace?: string;
  readonly canarySubset: string;
  /** Argo names it; Kruise narrows the subsets its stable destinations use. */
  readonly stableSubset?: string;
  readonly group: string;
}

export interface Targets {
  readonly dialect: 'argo' | 'kruise';
  readonly virtualServices: readonly VsTarget[];
  readonly destinationRules: readonly DrTarget[];
}

/** Argo accepts `name.namespace` (a trailing `.svc.cluster.local`/`.cluster.local` is dropped). */
export function splitName(raw: string, fallback?: string): { name: string; namespace?: string } {
  const bare = raw.replace(/\.svc\.cluster\.local$/, '').replace(/\.cluster\.local$/, '');
  const dot = bare.indexOf('.');
  if (dot < 0) return { name: bare, ...(fallback !== undefined ? { namespace: fallback } : {}) };
  return { name: bare.slice(0, dot), namespace: bare.slice(dot + 1) };
}

export const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';

export function targets(options: IstioOptions, namespace?: string): Targets {
  if (options.refs) return kruiseTargets(options.refs, namespace);
  const list = options.virtualServices ?? (options.virtualService ? [options.virtualService] : []);
  const virtualServices = list.map((vs) => ({
    ...splitName(vs.name, namespace),
    group: ISTIO_GROUP,
    select: { ...(vs.routes ? { http: vs.routes } : {}), tls: vs.tlsRoutes ?? [], tcp: vs.tcpRoutes ?? [] },
  }));
  const dr = options.destinationRule;
  const destinationRules = dr
    ? [
        {
          ...splitName(dr.name, namespace),
          canarySubset: dr.canarySubsetName,
          stableSubset: dr.stableSubsetName,
          group: ISTIO_GROUP,
        },
      ]
    : [];
  return { dialect: 'argo', virtualServices, destinationRules };
}

/** Kruise refs live in the rollout's namespace and are matched by group, kind and name, whatever the version. */
function kruiseTargets(refs: readonly ObjectRef[], namespace?: string): Targets {
  const ns = namespace !== undefined ? { namespace } : {};
  return {
    dialect: 'kruise',
    virtualServices: refs
      .filter((r) => r.kind === 'VirtualService')
      .map((r) => ({ name: r.name, ...ns, group: groupOf(r.apiVersion) })),
    destinationRules: refs
      .filter((r) => r.kind === 'DestinationRule')
      .map((r) => ({ name: r.name, ...ns, canarySubset: KRUISE_CANARY_SUBSET, group: groupOf(r.apiVersion) })),
  };
}
