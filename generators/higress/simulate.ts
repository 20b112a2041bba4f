import type { KubeObject } from '../../src/model/kube';
import { canaryPrefix, IngressPath, ingressPaths } from '../_kit/ingress';
import { matchStablePath, headerValue } from '../_kit/ingress-match';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { Flavour, NGINX_PREFIX } from './flavour';

type Annotations = Readonly<Record<string, string>>;

interface Canary {
  readonly service: string;
  /** Reads a compatible key under the nginx prefix or, failing that, the product's own prefix (Higress ParseStringASAP). */
  readonly key: (name: string) => string | undefined;
  readonly ext: (name: string) => string | undefined;
}

/**
 * Evaluates a request as Higress / MSE build routes from Ingresses: the stable route by host and
 * path; every canary Ingress on that host+path with a header, query or cookie key becomes a route
 * ahead of it (a request it matches goes to the canary, any other falls through); the others add
 * their canary-weight to the stable route's split. Undefined when no rule matches.
 */
export function simulate(f: Flavour, objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const stable = matchStablePath(objects, request);
  if (!stable) return undefined;
  const stableService = stable.path.service ?? '<resource backend>';
  const canaries = canariesOf(f, objects, stable.path);
  for (const c of canaries.filter(isMatchRoute)) {
    const rule = matchRule(f, c, request);
    if (rule) return { backends: [{ service: c.service, share: 1 }], rule };
  }
  const weighted = canaries.filter((c) => !isMatchRoute(c));
  if (weighted.length === 0) return { backends: [{ service: stableService, share: 1 }], rule: 'no canary' };
  return weightSplit(stableService, weighted);
}

function canariesOf(f: Flavour, objects: readonly KubeObject[], stable: IngressPath): Canary[] {
  const out: Canary[] = [];
  for (const object of objects) {
    if (object.kind !== 'Ingress' || canaryPrefix(object) === undefined) continue;
    const path = ingressPaths(object).find(
      (p) => p.host === stable.host && p.path === stable.path && exactness(p) === exactness(stable),
    );
    if (!path) continue;
    const a: Annotations = object.metadata.annotations ?? {};
    out.push({
      service: path.service ?? '<resource backend>',
      key: (n) => a[`${NGINX_PREFIX}/${n}`] ?? a[`${f.extPrefix}/${n}`],
      ext: (n) => a[`${f.extPrefix}/${n}`],
    });
  }
  return out;
}

const exactness = (p: IngressPath): boolean => p.pathType === 'Exact';

/** Higress CanaryKind: a header or cookie key (MSE also a query key) makes a match route; otherwise a weight split. */
function isMatchRoute(c: Canary): boolean {
  return Boolean(c.key('canary-by-header') || c.key('canary-by-cookie') || c.ext('canary-by-query'));
}

/**
 * Header first: a set canary-by-header hides the cookie (Higress ApplyByHeader); MSE ANDs a query
 * parameter with it. Without header or query, the cookie decides. Regexes match the whole value (Envoy RE2).
 */
function matchRule(f: Flavour, c: Canary, request: SimRequest): string | undefined {
  const header = c.key('canary-by-header');
  const query = f.queryMatch ? c.ext('canary-by-query') : undefined;
  if (header || query) {
    const rules = [
      ...(header ? [valueRule(f, 'header', header, c.key, headerValue(request.headers, header))] : []),
      ...(query ? [valueRule(f, 'query', query, c.ext, request.query[query])] : []),
    ];
    return rules.every((r) => r !== undefined) ? rules.join(' & ') : undefined;
  }
  const cookie = c.key('canary-by-cookie');
  return cookie && request.cookies[cookie] === 'always' ? `canary-by-cookie ${cookie}=always` : undefined;
}

function valueRule(
  f: Flavour,
  what: string,
  name: string,
  read: (n: string) => string | undefined,
  got: string | undefined,
): string | undefined {
  if (got === undefined) return undefined;
  const value = read(`canary-by-${what}-value`);
  const pattern = read(`canary-by-${what}-pattern`);
  const rule = `canary-by-${what} ${name}=${got}`;
  if (value)
    return (f.headerValueIsRegex && what === 'header' ? fullMatch(`always|${value}`, got) : got === value)
      ? rule
      : undefined;
  if (pattern) return fullMatch(pattern, got) ? rule : undefined;
  return got === 'always' ? rule : undefined;
}

/** An invalid pattern matches nothing (the gateway rejects the route, so requests stay on stable). */
function fullMatch(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return false;
  }
}

/** Canary weights out of the first canary's canary-weight-total (default 100); the stable route keeps the rest. */
function weightSplit(stableService: string, weighted: readonly Canary[]): SimResult {
  const total = positiveInt(weighted[0].key('canary-weight-total')) || 100;
  const parts = weighted.map((c) => ({
    service: c.service,
    units: Math.min(positiveInt(c.key('canary-weight')), total),
  }));
  const used = Math.min(
    total,
    parts.reduce((n, p) => n + p.units, 0),
  );
  const backends = [
    { service: stableService, share: (total - used) / total },
    ...parts.map((p) => ({ service: p.service, share: p.units / total })),
  ];
  const rule = parts.map((p) => `canary-weight ${p.units}/${total}`).join(', ');
  return { backends: backends.filter((b) => b.share > 0), rule };
}

function positiveInt(value: string | undefined): number {
  const n = value === undefined ? NaN : Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}
