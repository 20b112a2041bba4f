import { cloneJson, isObject, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import type { GeneratorContext } from '../../src/contract/generator';
import { canaryOnly, forwardAction, headerConditions, weightedGroups } from './actions';
import { unsupportedFeatures } from './features';
import { backendOf, ingressSpec, routesToAction } from './ingress';
import { stableConditions } from './stable-conditions';
import {
  actionKey,
  actionName,
  AlbOptions,
  conditionKey,
  MANAGED_ANNOTATIONS,
  stickiness,
  USE_ANNOTATION,
} from './options';

type Ctx = GeneratorContext<AlbOptions>;
type Json = Readonly<Record<string, unknown>>;

/**
 * Every listed Ingress with this rollout's annotations and header-route paths patched in; all
 * else on it (user annotations, other rules and paths, other rollouts' keys) is kept. The Ingress
 * is returned in every state, the stable-only one included, because the action annotation must
 * exist as long as a path points at it with `use-annotation`.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const unsupported = unsupportedFeatures(traffic);
  if (unsupported.length > 0) throw new Error(`aws-alb cannot express this traffic state: ${unsupported.join('; ')}`);
  const owned = ownedAnnotations(ctx, traffic);
  const routes = traffic.headerRoutes.map((r) => r.name);
  return ctx.options.ingresses.map((name) => {
    const source = ctx.resources.find('Ingress', name, ctx.rollout.namespace);
    if (!source) throw new Error(`Ingress "${name}" not found in the app's manifests`);
    return patchIngress(ctx, source.object, withStableConditions(ctx, source.object, owned, traffic), routes);
  });
}

/** Each header route's conditions ANDed with the stable action's own on this Ingress (stable-conditions.ts). */
function withStableConditions(
  ctx: Ctx,
  ingress: KubeObject,
  owned: Record<string, string>,
  traffic: TrafficState,
): Record<string, string> {
  const stable = stableConditions(ingress, ctx.options, ctx.stableService);
  if (stable === 'unreadable') throw new Error(`Ingress "${ingress.metadata.name}": unreadable stable conditions`);
  if (stable.length === 0) return owned;
  const out = { ...owned };
  for (const route of traffic.headerRoutes) {
    const key = conditionKey(ctx.options.annotationPrefix, route.name);
    out[key] = JSON.stringify([...stable, ...(JSON.parse(owned[key]) as unknown[])]);
  }
  return out;
}

/** The keys this rollout owns in one state: its weighted action, plus an action and conditions per active header route. */
export function ownedAnnotations(ctx: Ctx, traffic: TrafficState): Record<string, string> {
  const { options, canaryService, stableService } = ctx;
  const prefix = options.annotationPrefix;
  const sticky = stickiness(options);
  const out: Record<string, string> = {
    [actionKey(prefix, actionName(options, stableService))]: forwardAction(
      weightedGroups(canaryService, stableService, options.servicePort, traffic.weight, traffic.experiments),
      sticky,
    ),
  };
  for (const route of traffic.headerRoutes) {
    out[actionKey(prefix, route.name)] = forwardAction(canaryOnly(canaryService, options.servicePort), sticky);
    out[conditionKey(prefix, route.name)] = headerConditions(route);
  }
  return out;
}

function patchIngress(
  ctx: Ctx,
  ingress: KubeObject,
  owned: Record<string, string>,
  routes: readonly string[],
): KubeObject {
  const prefix = ctx.options.annotationPrefix;
  const managed = new Set(ctx.rollout.traffic.managedRoutes);
  const book = readBookkeeping(ingress.metadata.annotations?.[MANAGED_ANNOTATIONS]);
  // Keys this rollout owned before (bookkeeping) or could own (managed routes) go unless owned now,
  // so a route removed from a step leaves nothing behind even in an Ingress copied from a cluster.
  const stale = new Set([
    ...(book[ctx.rollout.name] ?? []),
    ...[...managed].flatMap((n) => [actionKey(prefix, n), conditionKey(prefix, n)]),
  ]);
  const annotations: Record<string, string> = {};
  for (const [key, value] of Object.entries(ingress.metadata.annotations ?? {})) {
    if (key in owned) annotations[key] = owned[key];
    else if (!stale.has(key)) annotations[key] = value;
  }
  for (const key of Object.keys(owned)) annotations[key] ??= owned[key];
  annotations[MANAGED_ANNOTATIONS] = writeBookkeeping({ ...book, [ctx.rollout.name]: Object.keys(owned).sort() });
  const spec = ingressSpec(ingress);
  const action = actionName(ctx.options, ctx.stableService);
  const rules = Array.isArray(spec.rules)
    ? spec.rules.map((r: unknown) => (isObject(r) ? patchRule(r, action, managed, routes) : r))
    : spec.rules;
  return {
    ...ingress,
    metadata: { ...ingress.metadata, annotations },
    spec: { ...spec, ...(rules !== undefined ? { rules } : {}) },
  };
}

/**
 * Drops this rollout's header-route paths, then puts one copy of every action path per active
 * route right ahead of it (same path and pathType, backend the route with `use-annotation`), in
 * managedRoutes order. ALB evaluates paths in document order, so a request that would reach the
 * action meets the route conditions first; paths before the action keep their precedence.
 */
export function patchRule(rule: Json, action: string, managed: ReadonlySet<string>, routes: readonly string[]): Json {
  const http = isObject(rule.http) ? rule.http : undefined;
  if (!http || !Array.isArray(http.paths)) return rule;
  const out: unknown[] = [];
  for (const path of http.paths) {
    const backend = isObject(path) ? backendOf(path.backend) : {};
    if (backend.port === USE_ANNOTATION && backend.service !== undefined && managed.has(backend.service)) continue;
    if (isObject(path) && routesToAction(backend, action)) out.push(...routes.map((r) => routePath(path, r)));
    out.push(path);
  }
  return { ...rule, http: { ...http, paths: out } };
}

function routePath(actionPath: Json, route: string): Json {
  return { ...cloneJson(actionPath), backend: { service: { name: route, port: { name: USE_ANNOTATION } } } };
}

/** The bookkeeping map; anything unreadable counts as empty (check warns about it). */
export function readBookkeeping(raw: string | undefined): Record<string, readonly string[]> {
  if (raw === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isObject(parsed)) return {};
    const out: Record<string, readonly string[]> = {};
    for (const [k, v] of Object.entries(parsed))
      if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === 'string');
    return out;
  } catch {
    return {};
  }
}

/** Rollout names and keys sorted, compact: the same bytes for the same ownership. */
function writeBookkeeping(book: Record<string, readonly string[]>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(book)
        .sort()
        .map((k) => [k, [...book[k]].sort()]),
    ),
  );
}

export { unsupportedFeatures };
