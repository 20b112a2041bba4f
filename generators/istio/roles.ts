import type { GeneratorContext } from '../../src/contract/generator';
import { IstioOptions, KRUISE_CANARY_SUBSET, Targets } from './options';
import { Json, Roles, shortHost } from './vs';

/**
 * Subset mode: Argo with a destinationRule, or Kruise when the canary has no Service of its own
 * (TrafficRouting, disableGenerateCanaryService) so it is the `canary` subset of the stable host.
 * Host mode otherwise: the canary is `<service>-canary` on the same port.
 */
export function rolesFor(ctx: GeneratorContext<IstioOptions>, t: Targets): Roles {
  const argoDr = t.dialect === 'argo' ? t.destinationRules[0] : undefined;
  if (argoDr)
    return subsetRoles(
      (d) => d.subset === argoDr.stableSubset,
      (d) => d.subset === argoDr.canarySubset,
      argoDr.canarySubset,
    );
  if (t.dialect === 'kruise' && ctx.canaryService === ctx.stableService) {
    const onHost = (d: Json) => shortHost(d.host) === ctx.stableService;
    return subsetRoles(
      (d) => onHost(d) && d.subset !== KRUISE_CANARY_SUBSET,
      (d) => onHost(d) && d.subset === KRUISE_CANARY_SUBSET,
      KRUISE_CANARY_SUBSET,
    );
  }
  return {
    isStable: (d) => shortHost(d.host) === ctx.stableService,
    isCanary: (d) => shortHost(d.host) === ctx.canaryService,
    canaryFor: (s) => withPort({ host: canaryHost(String(s.host), ctx.canaryService) }, s),
  };
}

export function isSubsetMode(ctx: GeneratorContext<IstioOptions>, t: Targets): boolean {
  return t.dialect === 'argo' ? t.destinationRules.length > 0 : ctx.canaryService === ctx.stableService;
}

function subsetRoles(isStable: (d: Json) => boolean, isCanary: (d: Json) => boolean, canarySubset: string): Roles {
  return { isStable, isCanary, canaryFor: (s) => withPort({ host: s.host, subset: canarySubset }, s) };
}

/** `svc.ns.svc.cluster.local` -> `svc-canary.ns.svc.cluster.local`: the canary Service lives beside the stable one. */
export function canaryHost(stableHost: string, canaryService: string): string {
  const dot = stableHost.indexOf('.');
  return dot < 0 ? canaryService : canaryService + stableHost.slice(dot);
}

/** The canary Service is a copy of the stable one, so the stable destination's port fits it (Kruise drops it; multi-port Services need it). */
function withPort(canary: Json, stable: Json): Json {
  return stable.port !== undefined ? { ...canary, port: stable.port } : canary;
}
