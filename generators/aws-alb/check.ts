import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { NamedRoute } from '../../src/model/rollout';
import type { GeneratorContext, RouteClaim } from '../../src/contract/generator';
import { headerValue } from './actions';
import { MAX_CONDITION_VALUES } from './features';
import { AlbPath, albPaths, routesToAction } from './ingress';
import { actionKey, actionName, AlbOptions, MANAGED_ANNOTATIONS, USE_ANNOTATION } from './options';
import { readBookkeeping } from './render';
import { checkServicePort } from './service-port';
import { conditionValueCount, stableConditionKey, stableConditions } from './stable-conditions';

type Ctx = GeneratorContext<AlbOptions>;

/** The canary Service is explicit, both Services expose servicePort, every listed Ingress routes to the action with `use-annotation`, route names are free. */
export function check(ctx: Ctx): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (ctx.rollout.traffic.generateCanaryService && !ctx.rollout.pingPong) {
    // The action keeps naming the canary Service at weight 0 between rollouts, so it must always exist.
    out.push(
      diagnosticAt(
        ctx.optionsOrigin,
        `aws-alb needs canaryService (a Service you write, as Argo requires for ALB); the action names it at every step, weight 0 included`,
      ),
    );
  }
  // With pingPong the stable Service changes from rollout to rollout, so the action needs a name of its own (as Argo requires).
  if (ctx.rollout.pingPong && !ctx.options.rootService)
    out.push(
      diagnosticAt(
        ctx.optionsOrigin,
        'aws-alb with pingPong needs rootService: the action is keyed by it while the ping and pong Services swap roles; add trafficRouting.alb.rootService and point the Ingress path at it',
      ),
    );
  out.push(...checkServicePort(ctx), ...checkRouteNames(ctx), ...wildcardValues(ctx));
  for (const name of ctx.options.ingresses) {
    const source = ctx.resources.find('Ingress', name, ctx.rollout.namespace);
    if (!source) {
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `Ingress "${name}" not found in the app's manifests; add it or fix trafficRouting.alb.ingress(es)`,
        ),
      );
      continue;
    }
    out.push(...checkIngress(ctx, source));
  }
  return out;
}

function checkIngress(ctx: Ctx, source: SourceObject): Diagnostic[] {
  const name = source.object.metadata.name;
  const action = actionName(ctx.options, ctx.stableService);
  const key = actionKey(ctx.options.annotationPrefix, action);
  const paths = albPaths(source.object);
  const out: Diagnostic[] = [];
  for (const p of paths.filter((x) => x.service === action && x.port !== USE_ANNOTATION)) {
    out.push(
      diagnosticAt(
        source.locate(pathLocation(p)),
        `Ingress "${name}" routes to Service "${action}" on port ${p.port ?? '(none)'}; use port name "${USE_ANNOTATION}" so the AWS Load Balancer Controller reads the action ${key}`,
      ),
    );
  }
  if (!paths.some((p) => routesToAction(p, action))) {
    out.push(
      diagnosticAt(
        source.origin,
        `Ingress "${name}" has no path whose backend is Service "${action}" with port name "${USE_ANNOTATION}", so the ALB action ${key} would route nothing; point a path at service "${action}", port {name: ${USE_ANNOTATION}}`,
      ),
    );
  }
  if (!bookkeepingReadable(source.object.metadata.annotations?.[MANAGED_ANNOTATIONS])) {
    out.push(
      diagnosticAt(
        source.origin,
        `annotation ${MANAGED_ANNOTATIONS} on Ingress "${name}" is not a JSON map of rollout names to key lists; rollgen rewrites it`,
        'warning',
      ),
    );
  }
  const stable = stableConditions(source.object, ctx.options, ctx.stableService);
  const routed = ctx.rollout.steps.some((step) => step.headerRoutes.length > 0);
  if (stable === 'unreadable' && routed) {
    const key = stableConditionKey(ctx.options, ctx.stableService);
    out.push(
      diagnosticAt(
        source.locate(['metadata', 'annotations', key]),
        `annotation ${key} on Ingress "${name}" is not a JSON list of ALB conditions; rollgen copies the stable action's conditions onto each header route (an ALB rule ANDs them), so write it as the AWS Load Balancer Controller reads it`,
      ),
    );
  }
  const stableValues = stable === 'unreadable' ? 0 : conditionValueCount(stable);
  out.push(
    ...checkConditionQuota(
      ctx,
      name,
      paths.filter((p) => routesToAction(p, action)),
      stableValues,
    ),
  );
  return out;
}

/** A header route is an action name on the same Ingress: it must not be a Service the rollout routes to. */
/**
 * An exact header value holding * or ?: Argo writes it into the condition as is and the ALB reads
 * them as wildcards (`Mozilla*` matches every value that starts with Mozilla). rollgen does the
 * same, warned once at the step that sets the route.
 */
function wildcardValues(ctx: Ctx): Diagnostic[] {
  const said = new Set<string>();
  const out: Diagnostic[] = [];
  for (const step of ctx.rollout.steps)
    for (const route of step.headerRoutes)
      for (const h of route.matches.flatMap((m) => m.headers)) {
        const key = JSON.stringify([route.name, h.name, h.value]);
        if (h.type !== 'Exact' || !/[*?]/.test(h.value) || said.has(key)) continue;
        said.add(key);
        out.push(
          diagnosticAt(
            step.origin,
            `header route "${route.name}": the ALB matches header ${h.name} exact "${h.value}" with * and ? as wildcards (* any run of characters, ? one), as Argo writes it; ALB has no escape for them, so a literal * or ? cannot be matched`,
            'warning',
          ),
        );
      }
  return out;
}

function checkRouteNames(ctx: Ctx): Diagnostic[] {
  const taken = new Set([actionName(ctx.options, ctx.stableService), ctx.stableService, ctx.canaryService]);
  return ctx.rollout.traffic.managedRoutes
    .filter((r) => taken.has(r))
    .map((r) =>
      diagnosticAt(
        ctx.optionsOrigin,
        `managed route "${r}" has the name of a Service this rollout routes to; ALB keys actions by name, so rename the route`,
      ),
    );
}

/**
 * ALB counts the rule's host and path values with the header values against one quota of
 * condition values per rule; the controller turns a Prefix path other than `/` into two values.
 */
function checkConditionQuota(
  ctx: Ctx,
  ingress: string,
  actionPaths: readonly AlbPath[],
  stableValues: number,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  ctx.rollout.steps.forEach((step, i) => {
    for (const route of step.headerRoutes) {
      const headers = headerValues(route);
      for (const p of actionPaths) {
        const total = (p.host ? 1 : 0) + pathValues(p) + headers + stableValues;
        if (total <= MAX_CONDITION_VALUES) continue;
        const where = `Ingress "${ingress}" ${p.host ?? '*'}${p.path ?? ''}`;
        out.push(
          diagnosticAt(
            step.origin,
            `app ${ctx.app}, rollout ${ctx.rollout.name}, step ${i + 1}: provider aws-alb cannot express header route "${route.name}" on ${where}: ${total} condition values (host, path, ${headers} header values${stableValues > 0 ? ` and the stable action's ${stableValues}` : ''}) exceed ALB's ${MAX_CONDITION_VALUES} per rule`,
          ),
        );
      }
    }
  });
  return out;
}

const headerValues = (route: NamedRoute): number =>
  new Set(route.matches.flatMap((m) => m.headers.map(headerValue))).size;

function pathValues(p: AlbPath): number {
  if (p.path === undefined || p.path === '') return 0;
  return p.pathType === 'Prefix' && p.path.replace(/\/+$/, '') !== '' ? 2 : 1;
}

function pathLocation(p: AlbPath): (string | number)[] {
  return ['spec', 'rules', p.rule, 'http', 'paths', p.index, 'backend', 'service', 'port'];
}

function bookkeepingReadable(raw: string | undefined): boolean {
  if (raw === undefined) return true;
  return Object.keys(readBookkeeping(raw)).length > 0 || raw.trim() === '{}';
}

/** One claim per annotation key this rollout may own on each Ingress: two rollouts may not own the same action. */
export function claims(ctx: Ctx): RouteClaim[] {
  const prefix = ctx.options.annotationPrefix;
  const names = [actionName(ctx.options, ctx.stableService), ...ctx.rollout.traffic.managedRoutes];
  return ctx.options.ingresses.flatMap((ingress) => {
    const source = ctx.resources.find('Ingress', ingress, ctx.rollout.namespace);
    if (!source) return [];
    const ns = source.object.metadata.namespace ?? ctx.rollout.namespace ?? '';
    return names.map((n) => ({
      key: `aws-alb:${ns}/${ingress}:${actionKey(prefix, n)}`,
      description: `the ALB action ${actionKey(prefix, n)} on Ingress "${ingress}" (each rollout sharing an Ingress needs its own action and route names)`,
      origin: ctx.optionsOrigin,
    }));
  });
}
