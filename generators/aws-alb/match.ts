import type { SimRequest } from '../../src/contract/generator';
import type { AlbPath } from './ingress';

/** ALB wildcard match: `*` any run of characters, `?` exactly one. */
export function globMatches(pattern: string, value: string, caseInsensitive: boolean): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, caseInsensitive ? 'is' : 's').test(value);
}

/** Host conditions compare case-insensitively with wildcards; a rule without a host matches any. */
export function hostMatches(ruleHost: string | undefined, requestHost: string | undefined): boolean {
  if (ruleHost === undefined) return true;
  if (requestHost === undefined) return false;
  const bare = requestHost.replace(/:\d+$/, '').replace(/\.$/, '');
  return globMatches(ruleHost, bare, true);
}

/**
 * The path conditions the AWS Load Balancer Controller derives from an Ingress path: Exact is the
 * path itself; Prefix `/foo` is `/foo` or `/foo/*` (`/` is `/*`); ImplementationSpecific is an ALB
 * path pattern (case-sensitive wildcards); no path at all matches every path.
 */
export function pathMatches(p: Pick<AlbPath, 'path' | 'pathType'>, requestPath: string): boolean {
  if (p.path === undefined || p.path === '') return true;
  if (p.pathType === 'Exact') return p.path === requestPath;
  if (p.pathType === 'Prefix') {
    const base = p.path.replace(/\/+$/, '');
    return base === '' || requestPath === base || requestPath.startsWith(`${base}/`);
  }
  return globMatches(p.path, requestPath, false);
}

export function requestPath(request: SimRequest): string {
  return request.path.split(/[?#]/)[0] || '/';
}

/** Header names are case-insensitive. */
export function headerOf(request: SimRequest, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const found = Object.keys(request.headers).find((h) => h.toLowerCase() === wanted);
  return found === undefined ? undefined : request.headers[found];
}
