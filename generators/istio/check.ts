import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { RouteClaim } from '../../src/contract/generator';
import { andLists, istioMatch } from './match';
import { IstioOptions, targets, Targets } from './options';
import type { Ctx } from './render';
import { rolesFor } from './roles';
import { checkDestinationRules } from './check-destination-rule';
import type { SourceObject } from '../../src/model/resource-set';
import { delegateOf, findIstio, hasHttpSection, ManagedRule, Roles, rulesOf, selectRules } from './vs';

/** The referenced objects exist, the rules to weight exist and route to stable, and every step's matches fit those rules. */
export function check(ctx: Ctx): Diagnostic[] {
  const shape = checkShape(ctx.options, ctx);
  if (shape.length > 0) return shape.map((m) => diagnosticAt(ctx.optionsOrigin, m));
  const t = targets(ctx.options, ctx.rollout.namespace);
  const roles = rolesFor(ctx, t);
  return [...checkVirtualServices(ctx, t, roles), ...checkSwapped(ctx, t), ...checkDestinationRules(ctx, t)];
}

/** pingPong: the routes must also fit once the pong Service is stable (Argo needs both hosts in each route). */
function checkSwapped(ctx: Ctx, t: Targets): Diagnostic[] {
  if (!ctx.rollout.pingPong || ctx.rollout.pingPong.alongside) return [];
  const swapped: Ctx = { ...ctx, stableService: ctx.canaryService, canaryService: ctx.stableService };
  const first = new Set(checkVirtualServices(ctx, t, rolesFor(ctx, t)).map((d) => d.message));
  return checkVirtualServices(swapped, t, rolesFor(swapped, t))
    .filter((d) => !first.has(d.message))
    .map((d) => ({
      ...d,
      message: `${d.message} once ${ctx.canaryService} is stable (pingPong swaps the roles); give each route destinations to both ${ctx.stableService} and ${ctx.canaryService}`,
    }));
}

function checkShape(o: IstioOptions, ctx: Ctx): string[] {
  const argo = o.virtualService !== undefined || o.virtualServices !== undefined;
  if (o.refs) {
    if (argo || o.destinationRule)
      return [
        'istio options: refs (Kruise customNetworkRefs) cannot be mixed with virtualService(s) or destinationRule',
      ];
    return o.refs.some((r) => r.kind === 'VirtualService')
      ? []
      : ['customNetworkRefs name no VirtualService, so no traffic would move; add one'];
  }
  if (!argo) return ['istio needs virtualService or virtualServices'];
  if (ctx.rollout.pingPong && !ctx.rollout.pingPong.alongside && o.destinationRule)
    return [
      'istio with pingPong routes by host (the ping and pong Services); remove destinationRule, or drop pingPong for subset mode',
    ];
  if (o.virtualService && o.virtualServices) return ['istio: set virtualService or virtualServices, not both'];
  if (!o.destinationRule && (ctx.stableService === '' || ctx.stableService === ctx.canaryService)) {
    return [
      'istio host mode needs canaryService and stableService (two Services); for subset mode add destinationRule',
    ];
  }
  return [];
}

function checkVirtualServices(ctx: Ctx, t: Targets, roles: Roles): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const target of t.virtualServices) {
    const found = findIstio(ctx.resources, 'VirtualService', target);
    if (!found) {
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `${where(ctx)}: VirtualService "${target.name}"${target.namespace ? ` in namespace ${target.namespace}` : ''} (group ${target.group}) not found in the app's manifests`,
        ),
      );
      continue;
    }
    const { rules, problems, unweighted } = selectRules(found.object, target, roles, ctx.rollout.traffic.managedRoutes);
    for (const r of rules.length > 0 ? (unweighted ?? []) : [])
      out.push(
        diagnosticAt(
          found.locate(['spec', r.protocol, r.index]),
          `${r.protocol} route ${r.label} of VirtualService "${target.name}" routes to the stable Service under a match, so no step weights it (as Kruise weights only rules without a match): its requests stay on stable at every step, 100% included`,
          'warning',
        ),
      );
    out.push(
      ...problems.map((p) =>
        diagnosticAt(
          ctx.optionsOrigin,
          `${where(ctx)}: VirtualService "${target.name}" (${found.origin.file}:${found.origin.line}) ${p}`,
        ),
      ),
    );
    out.push(...delegateRoutes(found, rules, ctx));
    if (target.select?.http && !hasHttpSection(found.object))
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `VirtualService "${target.name}" has no http routes, so routes ${target.select.http.join(', ')} select nothing and are ignored (as Argo does); only its tls/tcp routes are weighted`,
          'warning',
        ),
      );
    const http = rulesOf(found.object, 'http');
    for (const name of ctx.rollout.traffic.managedRoutes) {
      const i = http.findIndex((r) => r.name === name);
      if (i >= 0 && !rules.some((r) => r.protocol === 'http' && r.index === i)) {
        out.push(
          diagnosticAt(
            found.locate(['spec', 'http', i]),
            `http route "${name}" is in managedRoutes, so rollgen renders it per step; the copy written here is dropped`,
            'warning',
          ),
        );
      }
    }
    out.push(
      ...checkSteps(
        ctx,
        rules.filter((r) => r.protocol === 'http').map((r) => ({ label: r.label, match: http[r.index].match })),
        target.name,
      ),
    );
  }
  return out;
}

/** Per step: header, mirror and match routes need an http rule to derive from, and must AND with its match. */
function checkSteps(ctx: Ctx, http: readonly { label: string; match: unknown }[], vs: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  ctx.rollout.steps.forEach((step, i) => {
    const routes = [
      ...step.headerRoutes,
      ...step.mirrorRoutes,
      ...(step.matches.length > 0 ? [{ name: 'matches', matches: step.matches }] : []),
    ];
    const fail = (feature: string) =>
      out.push(diagnosticAt(step.origin, `${where(ctx)}, step ${i + 1}: provider istio cannot express ${feature}`));
    if (routes.length > 0 && http.length === 0)
      fail(`route "${routes[0].name}" on VirtualService "${vs}", which has no selected http route to derive it from`);
    for (const r of routes) {
      for (const h of http) {
        const { conflicts } = andLists(h.match, r.matches.map(istioMatch));
        if (conflicts.length > 0)
          fail(
            `route "${r.name}" ANDed with http route ${h.label} of VirtualService "${vs}" (${conflicts.join('; ')})`,
          );
      }
    }
  });
  return out;
}

const where = (ctx: Ctx): string => `app ${ctx.app}, rollout ${ctx.rollout.name}`;

/** One claim per weighted rule and stable Service, and one per managed route name, on each VirtualService. */
export function claims(ctx: Ctx): RouteClaim[] {
  const t = targets(ctx.options, ctx.rollout.namespace);
  const roles = rolesFor(ctx, t);
  const out: RouteClaim[] = [];
  for (const target of t.virtualServices) {
    const found = findIstio(ctx.resources, 'VirtualService', target);
    if (!found) continue;
    const vs = `${target.namespace ?? ''}/${target.name}`;
    for (const r of selectRules(found.object, target, roles, ctx.rollout.traffic.managedRoutes).rules) {
      const origin = found.locate(['spec', r.protocol, r.index]);
      out.push({
        key: `istio:${vs}:${r.protocol}:${r.label}:${ctx.stableService}`,
        description: `${r.protocol} route ${r.label} of VirtualService "${target.name}" (Service ${ctx.stableService})`,
        origin,
      });
    }
    for (const name of ctx.rollout.traffic.managedRoutes) {
      out.push({
        key: `istio:${vs}:route:${name}`,
        description: `managed route "${name}" of VirtualService "${target.name}"`,
        origin: ctx.optionsOrigin,
      });
    }
  }
  return out;
}

/** Selected routes that delegate: the weights would go on a route that has none (Argo refuses them too, argo-rollouts#4205). */
function delegateRoutes(found: SourceObject, rules: readonly ManagedRule[], ctx: Ctx): Diagnostic[] {
  return rules.flatMap((r) => {
    const delegate = delegateOf(rulesOf(found.object, r.protocol)[r.index]);
    if (delegate === undefined) return [];
    return [
      diagnosticAt(
        found.locate(['spec', r.protocol, r.index, 'delegate']),
        `${where(ctx)}: http route ${r.label} delegates to VirtualService "${delegate}"; rollgen (as Argo) does not weight delegate routes: name the delegate VirtualService "${delegate}" and its routes in the rollout instead`,
      ),
    ];
  });
}
