import { KubeObject, isObject } from '../model/kube';

/** The hosts and paths the rendered routes serve, for `simulate`'s defaults and its "nothing matches" hint. */
export interface RouteEndpoints {
  readonly hosts: readonly string[];
  readonly paths: readonly string[];
}

/**
 * Read from the route APIs providers render to: Ingress (ingress-nginx, ALB, MSE, Higress), Gateway
 * API HTTPRoute, Istio VirtualService, ApisixRoute and Ambassador Mapping. Other kinds add nothing. Sorted, unique.
 */
export function routeEndpoints(objects: readonly KubeObject[]): RouteEndpoints {
  const hosts = new Set<string>();
  const paths = new Set<string>();
  for (const o of objects) {
    const spec = isObject(o.spec) ? o.spec : {};
    if (o.kind === 'Ingress')
      for (const rule of list(spec.rules)) {
        text(rule.host, hosts);
        for (const p of list(isObject(rule.http) ? rule.http.paths : undefined)) text(p.path, paths);
      }
    if (o.kind === 'HTTPRoute') {
      texts(spec.hostnames, hosts);
      for (const rule of list(spec.rules))
        for (const m of list(rule.matches)) text(isObject(m.path) ? m.path.value : undefined, paths);
    }
    if (o.kind === 'ApisixRoute')
      for (const rule of list(spec.http)) {
        const match = isObject(rule.match) ? rule.match : {};
        texts(match.hosts, hosts);
        texts(match.paths, paths);
      }
    // Ambassador / Emissary: each Mapping serves its prefix, on its host (or hostname) when it names one.
    if (o.kind === 'Mapping' && o.apiVersion.startsWith('getambassador.io/')) {
      text(spec.host_regex === true ? undefined : (spec.host ?? spec.hostname), hosts);
      text(spec.prefix, paths);
    }
    if (o.kind === 'VirtualService') {
      texts(spec.hosts, hosts);
      for (const route of list(spec.http))
        for (const m of list(route.match)) {
          const uri = isObject(m.uri) ? m.uri : {};
          text(uri.exact ?? uri.prefix, paths);
        }
    }
  }
  return { hosts: [...hosts].sort(), paths: [...paths].sort() };
}

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

function text(v: unknown, into: Set<string>): void {
  if (typeof v === 'string' && v !== '') into.add(v);
}

function texts(v: unknown, into: Set<string>): void {
  if (Array.isArray(v)) for (const item of v) text(item, into);
}
