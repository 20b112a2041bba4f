import type { TrafficState } from '../../src/model/plan';
import { type RouteMatch, type ValueMatch, methodText } from '../../src/model/rollout';

/**
 * ingress-nginx gives a canary Ingress one `canary-by-header` slot (Exact value or regex
 * pattern), one `canary-by-cookie` slot (cookie value `always` only) and a weight; the three
 * are ORed in that order. Anything else is listed here, one plain sentence per feature.
 */
export function unsupportedFeatures(traffic: TrafficState): string[] {
  const out: string[] = [...stateFeatures(traffic)];
  traffic.matches.forEach((match, i) => out.push(...matchFeatures(match, i + 1)));
  const headerMatches = traffic.matches.filter((m) => m.headers.length > 0).length;
  if (headerMatches > 1) {
    out.push(`${headerMatches} header matches (ingress-nginx has one canary-by-header per Ingress)`);
  }
  const cookieMatches = traffic.matches.filter((m) => m.cookies.length > 0).length;
  if (cookieMatches > 1) {
    out.push(`${cookieMatches} cookie matches (ingress-nginx has one canary-by-cookie per Ingress)`);
  }
  return out;
}

function stateFeatures(traffic: TrafficState): string[] {
  const out: string[] = [];
  if (!Number.isInteger(traffic.weight)) {
    out.push(
      `weight ${traffic.weight} is not a whole number (ingress-nginx canary-weight is an integer; raise the weight total)`,
    );
  }
  if (!Number.isInteger(traffic.weightTotal) || traffic.weightTotal < 1) {
    out.push(`weight total ${traffic.weightTotal} is not a positive whole number (ingress-nginx canary-weight-total)`);
  }
  if (traffic.headerRoutes.length > 0) {
    const names = traffic.headerRoutes.map((r) => r.name).join(', ');
    out.push(
      `named header routes (setHeaderRoute: ${names}); ingress-nginx has none, use additionalIngressAnnotations`,
    );
  }
  if (traffic.mirrorRoutes.length > 0) {
    const names = traffic.mirrorRoutes.map((r) => r.name).join(', ');
    out.push(`mirror routes (setMirrorRoute: ${names}); ingress-nginx canary Ingresses cannot mirror`);
  }
  if (traffic.requestHeaderModifier) {
    out.push('requestHeaderModifier (ingress-nginx canary annotations cannot modify request headers)');
  }
  return out;
}

function matchFeatures(match: RouteMatch, n: number): string[] {
  const conditions = describeConditions(match);
  const out: string[] = [];
  if (conditions.length === 0) {
    out.push(`match ${n} has no condition, so it would send every request to the canary; use a weight instead`);
  } else if (conditions.length > 1) {
    out.push(
      `match ${n} ANDs ${conditions.length} conditions (${conditions.join(', ')}); ingress-nginx cannot AND canary conditions`,
    );
  }
  for (const q of match.queryParams)
    out.push(`match ${n}: ${describe('query parameter', q)} (ingress-nginx cannot match query parameters)`);
  if (match.path)
    out.push(`match ${n}: path ${match.path.type} ${match.path.value} (ingress-nginx canary rules cannot match paths)`);
  if (match.method)
    out.push(`match ${n}: method ${methodText(match.method)} (ingress-nginx canary rules cannot match methods)`);
  for (const h of match.headers) {
    if (h.type === 'Prefix')
      out.push(
        `match ${n}: ${describe('header', h)} (ingress-nginx matches headers Exact or RegularExpression, not Prefix)`,
      );
  }
  for (const c of match.cookies) {
    if (c.type !== 'Exact' || c.value !== 'always') {
      out.push(
        `match ${n}: ${describe('cookie', c)} (ingress-nginx canary-by-cookie only routes the cookie value "always"; match "always" Exact or use a header)`,
      );
    }
  }
  return out;
}

function describeConditions(match: RouteMatch): string[] {
  return [
    ...match.headers.map((h) => describe('header', h)),
    ...match.cookies.map((c) => describe('cookie', c)),
    ...match.queryParams.map((q) => describe('query', q)),
    ...(match.path ? [`path ${match.path.value}`] : []),
    ...(match.method ? [`method ${methodText(match.method)}`] : []),
  ];
}

function describe(what: string, m: ValueMatch): string {
  const op = m.type === 'Exact' ? '=' : m.type === 'Prefix' ? '^=' : '=~';
  return `${what} ${m.name}${op}${m.value}`;
}
