import type { TrafficState } from '../../src/model/plan';
import { type RouteMatch, methodText } from '../../src/model/rollout';
import { MAX_HEADERS_PER_MATCH, MAX_QUERY_PER_MATCH } from './matches';

/** HTTPRouteMatch `method` enum. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];
const MAX_WEIGHT = 1_000_000;

/**
 * What an HTTPRoute cannot say about one traffic state, one plain sentence per feature. Limits
 * that depend on the route (matches crossed with a rule's own) are checked when rendering.
 */
export function unsupportedFeatures(traffic: TrafficState): string[] {
  const out: string[] = [...weightFeatures(traffic)];
  traffic.matches.forEach((m, i) => out.push(...matchFeatures(m, `match ${i + 1}`)));
  for (const r of traffic.headerRoutes) {
    if (r.matches.length === 0) out.push(`header route "${r.name}" has no match`);
    r.matches.forEach((m, i) => out.push(...matchFeatures(m, `header route "${r.name}" match ${i + 1}`)));
  }
  for (const r of traffic.mirrorRoutes) {
    if (!Number.isInteger(r.percentage) || r.percentage < 0 || r.percentage > 100) {
      out.push(`mirror route "${r.name}": percentage ${r.percentage} (RequestMirror percent is a whole number 0-100)`);
    }
    if (r.matches.length === 0) out.push(`mirror route "${r.name}" has no match`);
    r.matches.forEach((m, i) => out.push(...matchFeatures(m, `mirror route "${r.name}" match ${i + 1}`)));
  }
  return out;
}

function weightFeatures(t: TrafficState): string[] {
  const out: string[] = [];
  if (
    !Number.isInteger(t.weight) ||
    !Number.isInteger(t.weightTotal) ||
    t.weightTotal < 1 ||
    t.weightTotal > MAX_WEIGHT
  ) {
    out.push(`weight ${t.weight}/${t.weightTotal} (backendRef weights are whole numbers up to ${MAX_WEIGHT})`);
  }
  return out;
}

function matchFeatures(m: RouteMatch, label: string): string[] {
  const out: string[] = [];
  const conditions = m.headers.length + m.queryParams.length + m.cookies.length + (m.path ? 1 : 0) + (m.method ? 1 : 0);
  if (conditions === 0)
    out.push(`${label} has no condition, so it would send every request to the canary; use a weight instead`);
  for (const c of m.cookies)
    out.push(
      `${label}: cookie "${c.name}" (HTTPRoute has no cookie match; match the Cookie header with a RegularExpression instead)`,
    );
  if (m.method && m.method.type !== 'Exact')
    out.push(
      `${label}: method ${methodText(m.method)} (HTTPRoute matches one exact method; write one match per method with method: {exact: ...})`,
    );
  else if (m.method && !METHODS.includes(m.method.value))
    out.push(`${label}: method ${m.method.value} (HTTPRoute methods are ${METHODS.join(', ')})`);
  if (m.path && !m.path.value.startsWith('/'))
    out.push(`${label}: path "${m.path.value}" (HTTPRoute paths start with /)`);
  out.push(
    ...duplicates(
      m.headers.map((h) => h.name.toLowerCase()),
      `${label}: header`,
    ),
  );
  out.push(
    ...duplicates(
      m.queryParams.map((q) => q.name),
      `${label}: query parameter`,
    ),
  );
  if (m.headers.length > MAX_HEADERS_PER_MATCH)
    out.push(`${label}: ${m.headers.length} headers (at most ${MAX_HEADERS_PER_MATCH} per HTTPRoute match)`);
  if (m.queryParams.length > MAX_QUERY_PER_MATCH)
    out.push(`${label}: ${m.queryParams.length} query parameters (at most ${MAX_QUERY_PER_MATCH} per HTTPRoute match)`);
  return out;
}

/** Gateway API honours only the first entry per header or query name, so a repeated name would silently drop a condition. */
function duplicates(names: readonly string[], what: string): string[] {
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  return repeated.map((n) => `${what} "${n}" appears twice in one match (HTTPRoute honours only the first)`);
}
