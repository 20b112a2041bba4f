import { percentOf } from '../_kit/weight-only';
import { cloneJson, isObject, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import type { NamedRoute, ValueMatch } from '../../src/model/rollout';
import { Ctx, findRoute, httpRules, Json, listOf, specOf, targetRules } from './options';

/**
 * The ApisixRoute with, in each target rule, the canary backend at W and the stable one at
 * 100 - W (Argo's SetWeight); the canary backend is added after the stable one when missing and
 * dropped while idle unless the user wrote it and the canary Service. Each active setHeaderRoute
 * is its own ApisixRoute named after it (as Argo names it): the target rules only, one priority
 * higher, canary backend only, and the header conditions ANDed to the rule's own `exprs`.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const route = findRoute(ctx)?.object;
  if (!route) throw new Error(`ApisixRoute "${ctx.options.route.name}" not found`);
  const canary = percentOf(traffic);
  const keepIdle = ctx.resources.find('Service', ctx.canaryService, ctx.rollout.namespace) !== undefined;
  const targets = targetRules(ctx);
  const http = httpRules(route).map((r) =>
    targets.includes(String(r.name)) ? { ...r, backends: weigh(listOf(r.backends), ctx, canary, keepIdle) } : r,
  );
  const main = { ...route, spec: { ...specOf(route), http } };
  const rules = httpRules(route).filter((r) => targets.includes(String(r.name)));
  return [main, ...traffic.headerRoutes.map((h) => headerRoute(route, rules, h, ctx.canaryService))];
}

function weigh(backends: readonly Json[], ctx: Ctx, canary: number, keepIdle: boolean): Json[] {
  const isCanary = (b: Json) => b.serviceName === ctx.canaryService;
  const hasCanary = backends.some(isCanary);
  const out: Json[] = [];
  for (const b of backends) {
    if (isCanary(b)) {
      if (canary > 0 || keepIdle) out.push({ ...cloneJson(b), weight: canary });
      continue;
    }
    const stable = b.serviceName === ctx.stableService;
    out.push(stable ? { ...cloneJson(b), weight: 100 - canary } : cloneJson(b));
    if (stable && !hasCanary && canary > 0)
      out.push({ ...cloneJson(b), serviceName: ctx.canaryService, weight: canary });
  }
  return out;
}

function headerRoute(route: KubeObject, rules: readonly Json[], h: NamedRoute, canaryService: string): KubeObject {
  const http = rules.flatMap((rule) =>
    h.matches.map((m, i) => {
      const stable = listOf(rule.backends)[0] ?? {};
      const match = isObject(rule.match) ? rule.match : {};
      const exprs = [...listOf(match.exprs), ...m.headers.map(headerExpr)];
      const { weight: _w, ...backend } = cloneJson(stable);
      return {
        ...cloneJson(rule),
        name: h.matches.length === 1 ? `${String(rule.name)}-${h.name}` : `${String(rule.name)}-${h.name}-${i + 1}`,
        priority: (typeof rule.priority === 'number' ? rule.priority : 0) + 1,
        match: { ...cloneJson(match), exprs },
        backends: [{ ...backend, serviceName: canaryService }],
      };
    }),
  );
  const metadata = { name: h.name, ...(route.metadata.namespace ? { namespace: route.metadata.namespace } : {}) };
  const { stream: _tcp, ...spec } = specOf(route); // stream routes stay with the main ApisixRoute
  return { apiVersion: route.apiVersion, kind: route.kind, metadata, spec: { ...spec, http } };
}

/** Exact -> Equal; regex -> RegexMatch; prefix -> RegexMatch on the escaped prefix (Argo's mapping). */
export function headerExpr(h: ValueMatch): Json {
  const subject = { scope: 'Header', name: h.name };
  if (h.type === 'Exact') return { subject, op: 'Equal', value: h.value };
  const value = h.type === 'Prefix' ? `^${h.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*` : h.value;
  return { subject, op: 'RegexMatch', value };
}
