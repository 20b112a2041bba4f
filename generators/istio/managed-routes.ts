import { cloneJson, isObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import type { MirrorRoute, NamedRoute } from '../../src/model/rollout';
import type { GeneratorContext } from '../../src/contract/generator';
import { andLists, istioMatch, requestHeaders } from './match';
import type { IstioOptions } from './options';
import { asList, destinationOf, Json, Roles } from './vs';

/** A selected http rule after weighting. */
export interface HttpRule {
  readonly rule: Json;
  readonly label: string;
  readonly index: number;
}

/** Fields that decide where a rule sends traffic; everything else (retries, timeout, headers, ...) is the user's and carried over. */
const ROUTING_FIELDS = [
  'name',
  'match',
  'route',
  'mirror',
  'mirrors',
  'mirrorPercentage',
  'mirrorPercent',
  'redirect',
  'directResponse',
  'delegate',
];

/**
 * The canary rules of one state, per selected rule: Argo header and mirror routes in
 * `managedRoutes` order, then the Kruise matches. Each is derived from a selected rule and goes
 * right before it, so it keeps that rule's retries and timeouts, only catches requests the rule
 * would have sent to stable (its own match ANDed with the step's), and never takes requests an
 * earlier user rule answers (another rollout's route in a shared VirtualService, an /admin rule).
 */
export function canaryRules(
  ctx: GeneratorContext<IstioOptions>,
  rules: readonly HttpRule[],
  roles: Roles,
  traffic: TrafficState,
): Map<number, Json[]> {
  const order = ctx.rollout.traffic.managedRoutes;
  const named = [
    ...traffic.headerRoutes.map((r) => ({ r, mirror: false })),
    ...traffic.mirrorRoutes.map((r) => ({ r, mirror: true })),
  ].sort((a, b) => order.indexOf(a.r.name) - order.indexOf(b.r.name));
  const matches: NamedRoute = { name: `${ctx.rollout.name}-canary-match`, matches: traffic.matches };
  const headers = requestHeaders(traffic.requestHeaderModifier);
  const out = new Map<number, Json[]>();
  for (const h of rules) {
    const derived = named.map(({ r, mirror }) =>
      mirror
        ? mirrorRule(h, r as MirrorRoute, roles, nameFor(r.name, h, rules))
        : headerRule(h, r, roles, nameFor(r.name, h, rules)),
    );
    if (traffic.matches.length > 0)
      derived.push(headerRule(h, matches, roles, nameFor(matches.name, h, rules), headers));
    if (derived.length > 0) out.set(h.index, derived);
  }
  return out;
}

/** One rule selected: the route's own name; several: suffixed with the rule they derive from. */
function nameFor(name: string, h: HttpRule, rules: readonly HttpRule[]): string {
  return rules.length === 1 ? name : `${name}-${h.label.startsWith('#') ? h.index : h.label}`;
}

function headerRule(h: HttpRule, r: NamedRoute, roles: Roles, name: string, headers?: Json): Json {
  const base = userFields(h.rule);
  const merged = headers ? { headers: mergeHeaders(base.headers, headers) } : {};
  return {
    name,
    match: blocks(h, r),
    ...base,
    ...merged,
    route: [{ destination: roles.canaryFor(stableDestination(h, roles)) }],
  };
}

/** Same weighted destinations as the rule it derives from, plus a copy of each request to the canary. */
function mirrorRule(h: HttpRule, r: MirrorRoute, roles: Roles, name: string): Json {
  return {
    name,
    match: blocks(h, r),
    ...userFields(h.rule),
    route: cloneJson(asList(h.rule.route)),
    mirror: roles.canaryFor(stableDestination(h, roles)),
    mirrorPercentage: { value: r.percentage },
  };
}

function blocks(h: HttpRule, r: NamedRoute): Json[] {
  const { blocks, conflicts } = andLists(h.rule.match, r.matches.map(istioMatch));
  if (conflicts.length > 0)
    throw new Error(`route "${r.name}" cannot be ANDed with http route ${h.label}: ${conflicts.join('; ')}`);
  return blocks;
}

function stableDestination(h: HttpRule, roles: Roles): Json {
  const found = asList(h.rule.route)
    .map(destinationOf)
    .find((d) => roles.isStable(d));
  if (!found) throw new Error(`http route ${h.label} has no destination to the stable Service or subset`);
  return found;
}

function userFields(rule: Json): Json {
  return cloneJson(Object.fromEntries(Object.entries(rule).filter(([k]) => !ROUTING_FIELDS.includes(k))));
}

/** The step's request header operations win over the user's on the same header. */
function mergeHeaders(user: unknown, step: Json): Json {
  const u = isObject(user) ? user : {};
  const ur = isObject(u.request) ? u.request : {};
  const sr = isObject(step.request) ? step.request : {};
  const request: Json = { ...ur };
  for (const op of ['set', 'add'])
    if (sr[op]) request[op] = { ...(isObject(ur[op]) ? ur[op] : {}), ...(sr[op] as Json) };
  if (sr.remove)
    request.remove = [...new Set([...(Array.isArray(ur.remove) ? ur.remove : []), ...(sr.remove as unknown[])])];
  return { ...u, request };
}
