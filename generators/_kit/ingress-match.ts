import type { KubeObject } from '../../src/model/kube';
import type { SimRequest } from '../../src/contract/generator';
import { canaryPrefix, IngressPath, ingressPaths } from './ingress';

/** A stable (non-canary) Ingress path chosen for a request. */
export interface MatchedPath {
  readonly object: KubeObject;
  readonly path: IngressPath;
}

/** How well a rule's host fits the request host: 3 exact, 2 one-label wildcard, 1 no host (any), 0 no match. */
export function hostTier(ruleHost: string | undefined, requestHost: string | undefined): number {
  if (ruleHost === undefined) return 1;
  if (requestHost === undefined) return 0;
  if (ruleHost === requestHost) return 3;
  if (!ruleHost.startsWith('*.')) return 0;
  const dot = requestHost.indexOf('.');
  return dot > 0 && requestHost.slice(dot) === ruleHost.slice(1) ? 2 : 0;
}

/** Lower case, without a port or a trailing dot. */
export function normalizeHost(host: string | undefined): string | undefined {
  if (host === undefined || host === '') return undefined;
  const lower = host.toLowerCase();
  const bracket = lower.startsWith('[') ? lower.indexOf(']') + 1 : 0;
  const colon = lower.indexOf(':', bracket);
  const bare = colon >= 0 ? lower.slice(0, colon) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

function elements(path: string): string[] {
  return path.split('/').filter((e) => e !== '');
}

/**
 * Kubernetes Ingress path matching: Exact compares the whole path; Prefix compares
 * `/`-separated elements, so `/foo` matches `/foo` and `/foo/bar` but not `/foobar`.
 * ImplementationSpecific is treated as Prefix.
 */
export function pathMatches(pathType: string, ingressPath: string, requestPath: string): boolean {
  if (pathType === 'Exact') return ingressPath === requestPath;
  const want = elements(ingressPath);
  const got = elements(requestPath);
  return want.length <= got.length && want.every((e, i) => e === got[i]);
}

/** Longest path first; at equal length Exact before Prefix (Kubernetes Ingress precedence). */
function specificity(p: IngressPath): number {
  const length = p.pathType === 'Exact' ? p.path.length : p.path.replace(/\/+$/, '').length;
  return length * 2 + (p.pathType === 'Exact' ? 1 : 0);
}

/**
 * The stable route for a request: among non-canary Ingress rules, the best host tier that
 * fits wins (as nginx picks a server block by name), then the most specific matching path
 * inside it. Undefined when no rule fits.
 */
export function matchStablePath(objects: readonly KubeObject[], request: SimRequest): MatchedPath | undefined {
  const host = normalizeHost(request.host);
  const requestPath = request.path.split(/[?#]/)[0] || '/';
  const candidates = objects
    .filter((o) => o.kind === 'Ingress' && canaryPrefix(o) === undefined)
    .flatMap((object) => ingressPaths(object).map((path) => ({ object, path, tier: hostTier(path.host, host) })))
    .filter((c) => c.tier > 0);
  const tier = Math.max(0, ...candidates.map((c) => c.tier));
  const hits = candidates.filter((c) => c.tier === tier && pathMatches(c.path.pathType, c.path.path, requestPath));
  if (hits.length === 0) return undefined;
  const best = hits.reduce((a, b) => (specificity(b.path) > specificity(a.path) ? b : a));
  return { object: best.object, path: best.path };
}

const prefixLike = (pathType: string): string => (pathType === 'Exact' ? 'Exact' : 'Prefix');

/** The first canary Ingress (`<prefix>/canary: "true"`) with the same host and path as the stable route. */
export function findCanaryPath(
  objects: readonly KubeObject[],
  stable: IngressPath,
): { object: KubeObject; prefix: string; path: IngressPath } | undefined {
  for (const object of objects) {
    const prefix = object.kind === 'Ingress' ? canaryPrefix(object) : undefined;
    if (prefix === undefined) continue;
    const path = ingressPaths(object).find(
      (p) => p.host === stable.host && p.path === stable.path && prefixLike(p.pathType) === prefixLike(stable.pathType),
    );
    if (path) return { object, prefix, path };
  }
  return undefined;
}

/** A request header's value; header names are case-insensitive. */
export function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const found = Object.keys(headers).find((h) => h.toLowerCase() === wanted);
  return found === undefined ? undefined : headers[found];
}
