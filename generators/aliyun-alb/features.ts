import type { TrafficState } from '../../src/model/plan';
import type { RouteMatch } from '../../src/model/rollout';

/**
 * What `capabilities` cannot say about ALB canary annotations: one canary-by-header (an exact
 * value), one canary-by-cookie (value "always" only) and a whole-number percentage. Each finding
 * is one plain sentence; the planner turns it into an error naming app, step and provider.
 */
export function unsupportedFeatures(traffic: TrafficState): string[] {
  const out: string[] = [];
  if (!Number.isInteger(traffic.weight))
    out.push(`weight ${traffic.weight} is not a whole number (alb canary-weight is an integer percentage)`);
  traffic.matches.forEach((match, i) => out.push(...matchFeatures(match, i + 1)));
  const headerMatches = traffic.matches.filter((m) => m.headers.length > 0).length;
  if (headerMatches > 1) out.push(`${headerMatches} header matches (an ALB canary Ingress has one canary-by-header)`);
  const cookieMatches = traffic.matches.filter((m) => m.cookies.length > 0).length;
  if (cookieMatches > 1) out.push(`${cookieMatches} cookie matches (an ALB canary Ingress has one canary-by-cookie)`);
  return out;
}

function matchFeatures(match: RouteMatch, n: number): string[] {
  const out: string[] = [];
  const conditions =
    match.headers.length +
    match.cookies.length +
    match.queryParams.length +
    (match.path ? 1 : 0) +
    (match.method ? 1 : 0);
  if (conditions === 0)
    out.push(`match ${n} has no condition, so it would send every request to the canary; use a weight instead`);
  for (const c of match.cookies) {
    if (c.type !== 'Exact' || c.value !== 'always') {
      out.push(
        `match ${n}: cookie ${c.name} ${c.type} ${c.value} (alb canary-by-cookie only routes the cookie value "always")`,
      );
    }
  }
  return out;
}
