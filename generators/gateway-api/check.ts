import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { TrafficState } from '../../src/model/plan';
import type { StepSpec } from '../../src/model/rollout';
import type { GeneratorContext, RouteClaim } from '../../src/contract/generator';
import { missingFeatures } from '../../src/contract/capabilities';
import { capabilities } from './capabilities';
import { unsupportedFeatures } from './features';
import type { GatewayOptions } from './options';
import { renderRoute } from './render';
import { backendRefs, findRoute, HTTPROUTE_VERSIONS, refersTo, routeRules } from './route';

type Ctx = GeneratorContext<GatewayOptions>;

/**
 * Every listed HTTPRoute exists, is an HTTPRoute version rollgen renders and routes to the stable
 * Service; plugin options rollgen cannot render are refused; and every step renders on these
 * routes (crossed matches, Gateway API limits), so a problem is reported at plan time, per step.
 */
export function check(ctx: Ctx): Diagnostic[] {
  const out: Diagnostic[] = ctx.options.unsupported.map((key) =>
    diagnosticAt(
      ctx.optionsOrigin,
      `app ${ctx.app}, rollout ${ctx.rollout.name}: gatewayAPI plugin option "${key}" is not supported; rollgen renders HTTPRoutes only (httpRoute / httpRoutes)`,
    ),
  );
  for (const name of ctx.options.useHeaderRoutes.filter((n) => !ctx.options.httpRoutes.includes(n))) {
    out.push(
      diagnosticAt(ctx.optionsOrigin, `useHeaderRoutes names HTTPRoute "${name}", which is not among httpRoutes`),
    );
  }
  const found: string[] = [];
  for (const name of ctx.options.httpRoutes) {
    const source = findRoute(ctx.resources, name, routeNamespace(ctx));
    if (!source) {
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `HTTPRoute "${name}" not found in the app's manifests${routeNamespace(ctx) ? ` (namespace ${routeNamespace(ctx)})` : ''}; add it or fix ${optionPath(ctx)}`,
        ),
      );
      continue;
    }
    const problems = checkRoute(ctx, source);
    out.push(...problems);
    if (problems.length === 0) found.push(name);
  }
  if (out.length === 0) out.push(...checkSteps(ctx, found));
  return out;
}

function routeNamespace(ctx: Ctx): string | undefined {
  return ctx.options.namespace ?? ctx.rollout.namespace;
}

function optionPath(ctx: Ctx): string {
  return ctx.rollout.format === 'argo'
    ? 'plugins["argoproj-labs/gatewayAPI"].httpRoute(s)'
    : 'trafficRoutings[].gateway.httpRouteName';
}

function checkRoute(ctx: Ctx, source: SourceObject): Diagnostic[] {
  const route = source.object;
  const name = route.metadata.name;
  if (!HTTPROUTE_VERSIONS.includes(route.apiVersion)) {
    return [
      diagnosticAt(
        source.origin,
        `HTTPRoute "${name}" is ${route.apiVersion}; rollgen renders ${HTTPROUTE_VERSIONS.join(' or ')}`,
      ),
    ];
  }
  const stableRules = routeRules(route).filter((r) =>
    backendRefs(r).some((ref) => refersTo(ref, ctx.stableService, route.metadata.namespace)),
  );
  if (stableRules.length > 0) return [];
  return [
    diagnosticAt(
      source.locate(['spec', 'rules']),
      `HTTPRoute "${name}" has no rule with a backendRef to the stable Service "${ctx.stableService}" (kind Service, same namespace), so no traffic could shift to the canary; point a rule at that Service or pick another HTTPRoute`,
    ),
  ];
}

/** Renders every step on the routes and reports what it cannot express, at the step. */
function checkSteps(ctx: Ctx, routes: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  ctx.rollout.steps.forEach((step, i) => {
    const traffic = trafficOf(ctx, step);
    // A failed check stops the planner, so the features it would report are reported here, in its words.
    const missing = missingFeatures(capabilities, traffic);
    const features = missing.length > 0 ? missing : unsupportedFeatures(traffic);
    const problems = new Set(
      features.length > 0
        ? features
        : routes.flatMap((name) => renderRoute(ctx, name, traffic).problems.map((p) => `HTTPRoute "${name}": ${p}`)),
    );
    for (const p of problems) {
      out.push(
        diagnosticAt(
          step.origin,
          `app ${ctx.app}, rollout ${ctx.rollout.name}, step ${i + 1}: provider gateway-api cannot express ${p}`,
        ),
      );
    }
  });
  return out;
}

/** The routing a step asks for; the weight only matters for limits, so a step without one counts as 0. */
function trafficOf(ctx: Ctx, step: StepSpec): TrafficState {
  return {
    weight: step.weight ?? 0,
    weightTotal: ctx.rollout.traffic.weightTotal,
    matches: step.matches,
    headerRoutes: step.headerRoutes,
    mirrorRoutes: step.mirrorRoutes,
    ...(step.requestHeaderModifier ? { requestHeaderModifier: step.requestHeaderModifier } : {}),
  };
}

/**
 * One claim per HTTPRoute rule that routes to this rollout's stable Service: two rollouts weighting
 * the same backendRef would overwrite each other. Rollouts on different Services may share a route.
 */
export function claims(ctx: Ctx): RouteClaim[] {
  const out: RouteClaim[] = [];
  for (const name of ctx.options.httpRoutes) {
    const source = findRoute(ctx.resources, name, routeNamespace(ctx));
    if (!source) continue;
    const ns = source.object.metadata.namespace ?? '';
    routeRules(source.object).forEach((rule, i) => {
      if (!backendRefs(rule).some((ref) => refersTo(ref, ctx.stableService, source.object.metadata.namespace))) return;
      out.push({
        key: `gateway-api:${ns}/${name}:${ctx.stableService}:${i}`,
        description: `the weights of Service "${ctx.stableService}" in rule ${i + 1} of HTTPRoute "${name}" (app ${ctx.app})`,
        origin: source.locate(['spec', 'rules', i]),
      });
    });
  }
  return out;
}
