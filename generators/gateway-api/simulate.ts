import type { KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { compareRank, hostRank, matchRank, Rank } from './precedence';
import { backendRefs, Json, refLabel, refWeight, routeRules, routeSpec } from './route';

interface Candidate {
  readonly route: KubeObject;
  readonly index: number;
  readonly rule: Json;
  readonly rank: Rank;
}

/** A backend that gets the rule's traffic when every weight is 0: the data plane answers 500. */
export const NO_BACKEND = '<no backend: HTTP 500>';

/**
 * Evaluates a request as a Gateway API implementation would: of every HTTPRoute rule whose match
 * fits, the one with the highest precedence wins (hostname, Exact path, longest prefix, method,
 * most headers, most query parameters); ties go to the route first by namespace/name (git holds no
 * creationTimestamp) and then to the first rule. Its backendRefs share by weight (default 1).
 * Undefined when no rule fits (the data plane answers 404).
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const requestPath = request.path.split(/[?#]/)[0] || '/';
  const routes = objects
    .filter((o) => o.kind === 'HTTPRoute')
    .sort((a, b) => routeId(a).localeCompare(routeId(b), 'en'));
  let best: Candidate | undefined;
  for (const route of routes) {
    const host = hostRank(routeSpec(route).hostnames, request.host);
    if (!host) continue;
    routeRules(route).forEach((rule, index) => {
      const rank = ruleRank(rule, request, requestPath);
      if (rank && (!best || compareRank([...host, ...rank], best.rank) > 0))
        best = { route, index, rule, rank: [...host, ...rank] };
    });
  }
  return best ? split(best) : undefined;
}

function routeId(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

/** The best rank among a rule's matches (no matches = PathPrefix `/`). */
function ruleRank(rule: Json, request: SimRequest, requestPath: string): Rank | undefined {
  const matches = Array.isArray(rule.matches) && rule.matches.length > 0 ? (rule.matches as Json[]) : [{}];
  let best: Rank | undefined;
  for (const m of matches) {
    const rank = matchRank(m, request, requestPath);
    if (rank && (!best || compareRank(rank, best) > 0)) best = rank;
  }
  return best;
}

/** Shares by weight / sum of weights; weight-0 refs get nothing; a rule whose weights are all 0 answers 500. */
function split(c: Candidate): SimResult {
  const refs = backendRefs(c.rule);
  const total = refs.reduce((n, r) => n + Math.max(0, refWeight(r)), 0);
  const shares = new Map<string, number>();
  for (const r of refs) {
    const w = Math.max(0, refWeight(r));
    if (w > 0) shares.set(refLabel(r), (shares.get(refLabel(r)) ?? 0) + w / total);
  }
  const backends =
    total > 0 ? [...shares].map(([service, share]) => ({ service, share })) : [{ service: NO_BACKEND, share: 1 }];
  return { backends, rule: describe(c, refs) };
}

/** e.g. `HTTPRoute web rule 1: web 80, web-canary 20; mirror 10% to web-canary`. */
function describe(c: Candidate, refs: readonly Json[]): string {
  const weights = refs.map((r) => `${refLabel(r)} ${refWeight(r)}`).join(', ');
  const mirrors = (Array.isArray(c.rule.filters) ? (c.rule.filters as Json[]) : [])
    .filter((f) => f.type === 'RequestMirror')
    .map((f) => mirrorText((f.requestMirror ?? {}) as Json));
  return [`HTTPRoute ${c.route.metadata.name} rule ${c.index + 1}: ${weights || 'no backendRefs'}`, ...mirrors].join(
    '; ',
  );
}

function mirrorText(m: Json): string {
  const target = refLabel((m.backendRef ?? {}) as Json);
  const fraction = (m.fraction ?? undefined) as Json | undefined;
  const share =
    typeof m.percent === 'number'
      ? `${m.percent}%`
      : fraction
        ? `${String(fraction.numerator)}/${String(fraction.denominator ?? 100)}`
        : '100%';
  return `mirror ${share} to ${target}`;
}
