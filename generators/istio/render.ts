import { cloneJson, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import type { GeneratorContext } from '../../src/contract/generator';
import { renderDestinationRule } from './destination-rule';
import { unsupportedFeatures } from './features';
import { IstioOptions, targets, VsTarget } from './options';
import { canaryRules } from './managed-routes';
import { rolesFor } from './roles';
import { findIstio, Json, ManagedRule, Roles, rulesOf, selectRules, specOf } from './vs';
import { weighRoute } from './weights';
import { requestHeaders } from './match';

export type Ctx = GeneratorContext<IstioOptions>;

/**
 * Every referenced VirtualService and DestinationRule, always returned so their sync wave never
 * changes: the selected rules weighted, this rollout's header / mirror / match routes in front,
 * the DestinationRule's canary subset labelled. Rules this rollout does not select pass through,
 * so rollouts sharing one VirtualService each change only their own rules.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const unsupported = unsupportedFeatures(traffic);
  if (unsupported.length > 0) throw new Error(`istio cannot express this traffic state: ${unsupported.join('; ')}`);
  const t = targets(ctx.options, ctx.rollout.namespace);
  const roles = rolesFor(ctx, t);
  const sources = t.virtualServices.map((target) => sourceVs(ctx, target));
  const virtualServices = t.virtualServices.map((target, i) =>
    renderVirtualService(ctx, sources[i], target, roles, traffic),
  );
  const destinationRules = t.destinationRules.map((dr) => renderDestinationRule(ctx, dr, sources, roles, traffic));
  return [...virtualServices, ...destinationRules];
}

function sourceVs(ctx: Ctx, target: VsTarget): KubeObject {
  const found = findIstio(ctx.resources, 'VirtualService', target);
  if (!found) throw new Error(`VirtualService "${target.name}" not found in the app's manifests`);
  return found.object;
}

export function managedRules(ctx: Ctx, vs: KubeObject, target: VsTarget, roles: Roles): ManagedRule[] {
  const { rules, problems } = selectRules(vs, target, roles, ctx.rollout.traffic.managedRoutes);
  if (problems.length > 0) throw new Error(`VirtualService "${vs.metadata.name}" ${problems.join('; ')}`);
  return rules;
}

function renderVirtualService(
  ctx: Ctx,
  vs: KubeObject,
  target: VsTarget,
  roles: Roles,
  traffic: TrafficState,
): KubeObject {
  const rules = managedRules(ctx, vs, target, roles);
  const spec = cloneJson(specOf(vs));
  const headers = requestHeaders(traffic.requestHeaderModifier);
  for (const r of rules) {
    const rule = (spec[r.protocol] as Json[])[r.index];
    // tcp/tls destinations have no `headers`; the modifier only applies to http.
    rule.route = weighRoute(
      rulesOf(vs, r.protocol)[r.index].route as Json[],
      roles,
      traffic.weight,
      r.protocol === 'http' && headers ? { headers } : {},
      ctx.options.destinationRule?.additionalSubsetNames ?? [],
      traffic.experiments,
    );
  }
  const http = rulesOf({ ...vs, spec }, 'http');
  const httpRules = rules
    .filter((r) => r.protocol === 'http')
    .map((r) => ({ rule: http[r.index], label: r.label, index: r.index }));
  const derived = canaryRules(ctx, httpRules, roles, traffic);
  // Argo deletes every managedRoutes entry at the end; a same-named route in git is such a leftover.
  const managed = new Set(ctx.rollout.traffic.managedRoutes);
  const leftover = (rule: Json, i: number) => managed.has(String(rule.name)) && !httpRules.some((h) => h.index === i);
  if (derived.size > 0 || http.some(leftover))
    spec.http = http.flatMap((rule, i) => (leftover(rule, i) ? [] : [...(derived.get(i) ?? []), rule]));
  return { ...vs, spec };
}
