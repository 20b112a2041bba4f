import type { KubeObject } from '../../src/model/kube';
import type { SimRequest } from '../../src/contract/generator';
import { canaryPrefix, IngressPath, ingressClass, ingressPaths } from '../_kit/ingress';
import { hostTier, normalizeHost } from '../_kit/ingress-match';
import {
  DEFAULT_SERVER,
  DEFAULT_UPSTREAM,
  NginxLocation,
  NginxServer,
  nginxPathType,
  nginxServers,
  upstreamOf,
} from './locations';
import { DEFAULT_ANNOTATION_PREFIX } from './options';

/** A canary Ingress path attached to a primary upstream. */
export interface Attachment {
  readonly canary: KubeObject;
  readonly prefix: string;
  readonly path: IngressPath;
}

export interface CanaryIngress {
  readonly object: KubeObject;
  readonly prefix: string;
}

/**
 * controller.go mergeAlternativeBackends: each path of a canary Ingress attaches to the upstream of
 * the location with the same host, path and pathType. balancer.lua then routes by the upstream
 * (`proxy_upstream_name`, its `alternative_backends[1]`), so every location proxying to that
 * upstream, on any host or path, gets the canary's rules. Keyed by primary upstream; first wins.
 */
export function attachCanaries(
  servers: ReadonlyMap<string, NginxServer>,
  canaries: readonly CanaryIngress[],
  defaultNamespace = '',
): Map<string, Attachment> {
  const out = new Map<string, Attachment>();
  for (const { object, prefix } of canaries) {
    for (const path of ingressPaths(object)) {
      const alternative = upstreamOf(object, path.raw.backend, defaultNamespace);
      const server = servers.get(path.host ?? DEFAULT_SERVER);
      if (alternative === undefined || !server) continue;
      for (const location of server.locations) {
        if (location.upstream === alternative) break;
        if (location.upstream === DEFAULT_UPSTREAM || !samePlace(location, path)) continue;
        if (!out.has(location.upstream)) out.set(location.upstream, { canary: object, prefix, path });
      }
    }
  }
  return out;
}

/** A location written by this canary path's host, path and pathType (the canary's own location). */
export function samePlace(location: NginxLocation, path: IngressPath): boolean {
  return (
    (path.host ?? DEFAULT_SERVER) === location.host &&
    path.path === location.path &&
    nginxPathType(path.pathType) === location.pathType
  );
}

/**
 * template.go enforceRegexModifier: one location with use-regex or a rewrite-target other than its
 * path turns every location of the server into a case-insensitive `~* "^<path>"` regex.
 */
export function regexServer(server: NginxServer, prefix: string): boolean {
  return server.locations.some((l) => {
    const a = l.ingress.metadata.annotations ?? {};
    const target = a[`${prefix}/rewrite-target`];
    return /^(1|t|true)$/i.test(a[`${prefix}/use-regex`] ?? '') || (!!target && target !== l.path);
  });
}

/** nginx picks a server by name: the exact host, then a `*.domain` wildcard, else the default server. */
function selectServer(servers: ReadonlyMap<string, NginxServer>, host: string | undefined): [NginxServer, number] {
  const wanted = normalizeHost(host);
  let best: [NginxServer, number] = [servers.get(DEFAULT_SERVER) as NginxServer, 1];
  for (const server of servers.values()) {
    const tier = server.host === DEFAULT_SERVER ? 0 : hostTier(server.host, wanted);
    if (tier > best[1]) best = [server, tier];
  }
  if (best[1] === 1 && best[0].locations.every((l) => l.upstream === DEFAULT_UPSTREAM)) best = [best[0], 0];
  return best;
}

/**
 * The location nginx runs. Regex server: the first `^path` regex (case-insensitive) in
 * ingress-nginx's order, longest path first. Otherwise an exact location (Exact, and the `= /foo`
 * ingress-nginx adds for a Prefix `/foo`), else the longest prefix (Prefix `/foo` as `/foo/`).
 * Path types are ingress-nginx's: ImplementationSpecific is Prefix (locations.ts nginxPathType).
 */
export function selectLocation(server: NginxServer, path: string, regex: boolean): NginxLocation | undefined {
  if (regex) {
    const ordered = [...server.locations].sort(
      (a, b) => b.path.length - a.path.length || (a.path < b.path ? 1 : a.path > b.path ? -1 : 0),
    );
    return ordered.find((l) => regexOf(l.path)?.test(path));
  }
  const exact =
    server.locations.find((l) => l.pathType === 'Exact' && l.path === path) ??
    server.locations.find((l) => l.pathType === 'Prefix' && l.path !== '/' && l.path === path);
  if (exact) return exact;
  let best: NginxLocation | undefined;
  let bestLength = -1;
  for (const l of server.locations) {
    if (l.pathType === 'Exact') continue;
    const prefix = l.path.endsWith('/') ? l.path : `${l.path}/`;
    if (path.startsWith(prefix) && prefix.length > bestLength) [best, bestLength] = [l, prefix.length];
  }
  return best;
}

function regexOf(path: string): RegExp | undefined {
  try {
    return new RegExp(`^${path}`, 'i');
  } catch {
    return undefined; // nginx would refuse the configuration; the location matches nothing here
  }
}

/** The location a request reaches, the canary attached to its upstream, and whether it is the canary's own place. */
export interface Located {
  readonly location: NginxLocation;
  readonly attachment?: Attachment;
  readonly own: boolean;
}

/** Ingresses per class: each ingress-nginx controller (class) has its own servers and upstreams. */
function byClass(objects: readonly KubeObject[]): KubeObject[][] {
  const groups = new Map<string, KubeObject[]>();
  for (const o of objects.filter((x) => x.kind === 'Ingress')) {
    const key = ingressClass(o) ?? '';
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  return [...groups.values()];
}

/** Evaluates a request as ingress-nginx routes it: server, location, then the upstream's canary. */
export function locateRequest(objects: readonly KubeObject[], request: SimRequest): Located | undefined {
  let best:
    | { servers: Map<string, NginxServer>; server: NginxServer; tier: number; canaries: CanaryIngress[] }
    | undefined;
  for (const group of byClass(objects)) {
    const servers = nginxServers(group.filter((o) => canaryPrefix(o) === undefined));
    const [server, tier] = selectServer(servers, request.host);
    if (best && tier <= best.tier) continue;
    const canaries = group.flatMap((object) => {
      const prefix = canaryPrefix(object);
      return prefix === undefined ? [] : [{ object, prefix }];
    });
    best = { servers, server, tier, canaries };
  }
  if (!best || best.tier === 0) return undefined;
  const prefix = best.canaries[0]?.prefix ?? DEFAULT_ANNOTATION_PREFIX;
  const path = request.path.split(/[?#]/)[0] || '/';
  const location = selectLocation(best.server, path, regexServer(best.server, prefix));
  if (!location || location.upstream === DEFAULT_UPSTREAM) return undefined;
  const attachment = attachCanaries(best.servers, best.canaries).get(location.upstream);
  const own = best.canaries.some((c) => ingressPaths(c.object).some((p) => samePlace(location, p)));
  return { location, ...(attachment ? { attachment } : {}), own };
}
