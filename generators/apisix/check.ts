import { Diagnostic, diagnosticAt, Origin } from '../../src/diagnostics';
import type { RouteClaim } from '../../src/contract/generator';
import { suggestName } from '../../src/suggest';
import { Ctx, findRoute, httpRules, Json, listOf, targetRules } from './options';

const where = (ctx: Ctx): string => `app ${ctx.app}, rollout ${ctx.rollout.name}`;

/** The ApisixRoute exists, each target rule exists and has a stable backend, and no header route name is taken. */
export function check(ctx: Ctx): Diagnostic[] {
  const name = ctx.options.route.name;
  if (!ctx.stableService || ctx.stableService === ctx.canaryService)
    return [
      diagnosticAt(ctx.optionsOrigin, `${where(ctx)}: apisix needs canaryService and stableService (two Services)`),
    ];
  const found = findRoute(ctx);
  if (!found)
    return [
      diagnosticAt(
        ctx.optionsOrigin,
        `${where(ctx)}: ApisixRoute "${name}" (apisix.apache.org) not found in the app's manifests`,
      ),
    ];
  const out: Diagnostic[] = [];
  const rules = httpRules(found.object);
  for (const rule of targetRules(ctx)) {
    const i = rules.findIndex((r) => r.name === rule);
    if (i < 0) {
      // A rule the rollout lists is most often mistyped there: said at the rollout's apisix options.
      const listed = ctx.options.route.rules !== undefined;
      const near = suggestName(
        rule,
        rules.flatMap((r) => (typeof r.name === 'string' ? [r.name] : [])),
      );
      const hint = !listed
        ? ' (without apisix.route.rules the rule named like the route is weighted; list the rules)'
        : near
          ? `; did you mean "${near}"?`
          : '';
      out.push(
        diagnosticAt(
          listed ? ctx.optionsOrigin : found.origin,
          `${where(ctx)}: ApisixRoute "${name}" has no http rule "${rule}"${hint}`,
        ),
      );
    } else if (!listOf(rules[i].backends).some((b) => b.serviceName === ctx.stableService)) {
      out.push(
        diagnosticAt(
          found.locate(['spec', 'http', i]),
          `${where(ctx)}: http rule "${rule}" of ApisixRoute "${name}" has no backend for the stable Service "${ctx.stableService}"`,
        ),
      );
    } else out.push(...missingBackends(ctx, rules[i], rule, found.locate(['spec', 'http', i])));
  }
  for (const route of new Set(ctx.rollout.steps.flatMap((s) => s.headerRoutes.map((h) => h.name)))) {
    const taken = ctx.resources.find('ApisixRoute', route, found.object.metadata.namespace);
    if (taken)
      out.push(
        diagnosticAt(
          taken.origin,
          `${where(ctx)}: ApisixRoute "${route}" already exists; rollgen renders header route "${route}" as an ApisixRoute of that name, so rename one`,
        ),
      );
  }
  return out;
}

/** A backend naming neither a Service of the app nor the canary Service gets its share and maybe no pods (another app's Service may be meant). */
function missingBackends(ctx: Ctx, rule: Json, label: string, origin: Origin): Diagnostic[] {
  return listOf(rule.backends)
    .map((b) => String(b.serviceName ?? ''))
    .filter((svc) => svc !== ctx.canaryService && !ctx.resources.find('Service', svc, ctx.rollout.namespace))
    .map((svc) =>
      diagnosticAt(
        origin,
        `${where(ctx)}: http rule "${label}" of ApisixRoute "${ctx.options.route.name}" names Service "${svc}", which is neither in the app's manifests nor the canary Service "${ctx.canaryService}"; requests it gets fail if it does not exist`,
        'warning',
      ),
    );
}

/** Each target rule and each header route name is this rollout's alone. */
export function claims(ctx: Ctx): RouteClaim[] {
  const ns = ctx.rollout.namespace ?? '';
  const origin = findRoute(ctx)?.origin ?? ctx.optionsOrigin;
  return [
    ...targetRules(ctx).map((rule) => ({
      key: `apisix:${ns}/${ctx.options.route.name}:${rule}`,
      description: `http rule "${rule}" of ApisixRoute "${ctx.options.route.name}"`,
      origin,
    })),
    ...ctx.rollout.traffic.managedRoutes.map((route) => ({
      key: `apisix:${ns}/${route}`,
      description: `header route ApisixRoute "${route}"`,
      origin: ctx.optionsOrigin,
    })),
  ];
}
