import { cloneJson, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import type { GeneratorContext } from '../../src/contract/generator';
import { unsupportedFeatures } from './features';
import type { GatewayOptions } from './options';
import { findRoute, Json, routeRules, routeSpec } from './route';
import { CanarySource, derivedRules } from './rules';
import { Backends, MAX_WEIGHT, maxWeight, weightedRefs } from './weights';

export { unsupportedFeatures } from './features';

type Ctx = GeneratorContext<GatewayOptions>;

/** Gateway API CRD limits per route. */
const MAX_RULES = 16;
const MAX_MATCHES_PER_RULE = 64;
const MAX_MATCHES_PER_ROUTE = 128;

/**
 * Every listed HTTPRoute in one traffic state, always returned (also stable-only) so it keeps the
 * routes' sync wave. It starts from the route as the app's source (or an earlier rollout sharing
 * it) has it, so the stable-only state is that route exactly, bar a user-written canary ref at 0.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const unsupported = unsupportedFeatures(traffic);
  if (unsupported.length > 0)
    throw new Error(`gateway-api cannot express this traffic state: ${unsupported.join('; ')}`);
  return ctx.options.httpRoutes.map((name) => {
    const { route, problems } = renderRoute(ctx, name, traffic);
    if (problems.length > 0)
      throw new Error(`gateway-api cannot express this traffic state on HTTPRoute "${name}": ${problems.join('; ')}`);
    return route;
  });
}

/** One route in one state plus what it cannot express; `check` reports the problems per step. */
export function renderRoute(ctx: Ctx, name: string, traffic: TrafficState): { route: KubeObject; problems: string[] } {
  const source = findRoute(ctx.resources, name, ctx.options.namespace ?? ctx.rollout.namespace);
  if (!source) throw new Error(`HTTPRoute "${name}" not found in the app's manifests`);
  const route = source.object;
  const b: Backends = { stable: ctx.stableService, canary: ctx.canaryService, namespace: route.metadata.namespace };
  const original = routeRules(route);
  const weighted = original.map((r) =>
    weightedRefs(r, b, traffic.weight, traffic.weightTotal, traffic.requestHeaderModifier),
  );
  const problems: string[] = [];
  const canaryRules: Json[] = [];
  for (const source of canarySources(ctx, name, traffic, problems)) {
    const derived = derivedRules(original, weighted, b, source, traffic.requestHeaderModifier);
    canaryRules.push(...derived.rules);
    problems.push(...derived.problems.map((p) => `${source.what}: ${p}`));
  }
  // Canary rules go first: Gateway API ranks rules by match specificity, and on a tie the first
  // rule in the route wins, so a canary condition that equals a stable rule's still reaches the canary.
  const rules = [
    ...canaryRules,
    ...original.map((r, i) =>
      Array.isArray(r.backendRefs) ? { ...cloneJson(r), backendRefs: weighted[i] } : cloneJson(r),
    ),
  ];
  problems.push(...limitProblems(rules));
  const spec = { ...cloneJson(routeSpec(route)), rules };
  return { route: { ...cloneJson(route), metadata: metadataFor(ctx, route, traffic), spec }, problems };
}

/**
 * Kruise matches apply to every listed route; Argo header and mirror routes only to routes with
 * `useHeaderRoutes`, in `managedRoutes` order (Argo's precedence of managed routes). The entries of
 * a header route are ORed, as rollgen's plan shows them (the Argo plugin ANDs them; see README).
 */
function canarySources(ctx: Ctx, name: string, traffic: TrafficState, problems: string[]): CanarySource[] {
  const out: CanarySource[] = [];
  if (traffic.matches.length > 0)
    out.push({ label: 'canary', what: "the step's matches", conditions: traffic.matches });
  if (traffic.headerRoutes.length + traffic.mirrorRoutes.length === 0) return out;
  if (!ctx.options.useHeaderRoutes.includes(name)) {
    if (ctx.options.useHeaderRoutes.length === 0)
      problems.push(
        'header and mirror routes need an httpRoutes entry with useHeaderRoutes: true (or the httpRoute form)',
      );
    return out;
  }
  const managed = ctx.rollout.traffic.managedRoutes;
  const named = [
    ...traffic.headerRoutes.map((r) => ({
      name: r.name,
      source: { label: r.name, what: `header route "${r.name}"`, conditions: r.matches } as CanarySource,
    })),
    ...traffic.mirrorRoutes.map((r) => ({
      name: r.name,
      source: { label: r.name, what: `mirror route "${r.name}"`, conditions: r.matches, mirrorPercent: r.percentage },
    })),
  ];
  named.sort((a, b) => managed.indexOf(a.name) - managed.indexOf(b.name));
  return [...out, ...named.map((n) => n.source)];
}

function limitProblems(rules: readonly Json[]): string[] {
  const out: string[] = [];
  if (rules.length > MAX_RULES) out.push(`${rules.length} rules (an HTTPRoute holds at most ${MAX_RULES})`);
  const counts = rules.map((r) => (Array.isArray(r.matches) ? r.matches.length : 1));
  if (counts.some((n) => n > MAX_MATCHES_PER_RULE))
    out.push(`a rule with ${Math.max(...counts)} matches (at most ${MAX_MATCHES_PER_RULE})`);
  const total = counts.reduce((a, n) => a + n, 0);
  if (total > MAX_MATCHES_PER_ROUTE) out.push(`${total} matches in the route (at most ${MAX_MATCHES_PER_ROUTE})`);
  const weights = rules.map((r) => maxWeight(Array.isArray(r.backendRefs) ? (r.backendRefs as Json[]) : []));
  if (Math.max(0, ...weights) > MAX_WEIGHT) out.push(`a backendRef weight above ${MAX_WEIGHT}`);
  for (const r of rules)
    for (const m of Array.isArray(r.matches) ? (r.matches as Json[]) : []) out.push(...matchLimits(m));
  return [...new Set(out)];
}

function matchLimits(m: Json): string[] {
  const n = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  const out: string[] = [];
  if (n(m.headers) > 16) out.push(`a match with ${n(m.headers)} headers (at most 16)`);
  if (n(m.queryParams) > 16) out.push(`a match with ${n(m.queryParams)} query parameters (at most 16)`);
  return out;
}

/** The Argo plugin's in-progress label while the canary weight is above 0; never removed, so a peer sharing the route keeps its own. */
function metadataFor(ctx: Ctx, route: KubeObject, traffic: TrafficState): KubeObject['metadata'] {
  const meta = cloneJson(route.metadata);
  const label = ctx.options.inProgressLabel;
  if (!label || traffic.weight <= 0) return meta;
  return { ...meta, labels: { ...(meta.labels ?? {}), [label.key]: label.value } };
}
