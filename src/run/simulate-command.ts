import type { SimRequest } from '../contract/generator';
import { InputError } from '../errors';
import { renderApp } from '../render/render-app';
import { recordedStates, statesAtStep } from '../state/render-states';
import { colorAtGateway } from '../simulate/coloring';
import { PodShare, podsOf, simulateRequest } from '../simulate/simulate';
import type { KubeObject } from '../model/kube';
import type { LoadedApp } from '../spec/loaded-app';
import { RouteEndpoints, routeEndpoints } from '../simulate/route-hosts';
import { describePhase } from '../render/phase';
import { readAppOutput } from '../app/output-state';
import { CommonOptions, RunContext } from '../app/context';
import { loadRepo } from '../app/load-repo';
import { appGenerators } from '../app/load-app';
import { OutputOptions, isMachineOutput, printDocument, targetData } from '../app/output-format';

export interface SimulateOptions extends CommonOptions, OutputOptions {
  readonly step?: number;
  readonly header?: readonly string[];
  readonly cookie?: readonly string[];
  readonly query?: readonly string[];
  readonly host?: string;
  readonly path?: string;
}

/** Prints which backends and pods serve one request in a step (default: the state the output holds). */
export async function simulateCommand(ctx: RunContext, args: readonly string[], opts: SimulateOptions): Promise<void> {
  const { apps, peers } = await loadRepo(ctx, args, opts);
  if (apps.length !== 1) throw new InputError([], oneAppMessage(apps.map((a) => a.loc)));
  const [{ loc, app, output: read }] = apps;
  const output = readAppOutput(ctx, loc, app, peers, read);
  const states =
    opts.step !== undefined ? statesAtStep(app, output, opts.step, loc.track) : recordedStates(app, output, loc.track);
  const objects = renderApp(app, states, loc.track, peers);
  const routes = routeEndpoints(objects);
  const req = request(opts, routes);
  // The request comes from outside: the ingress gateway colours it first (RequestColoring).
  const generators = appGenerators(app);
  const split = simulateRequest(objects, generators, colorAtGateway(objects, req));
  // Without traffic providers the Services are the routes: the pods each one selects.
  const services = !split && generators.length === 0 ? servicePods(app, objects) : [];
  const described = app.rollouts.map((r, i) => ({
    rollout: `${app.name}/${r.spec.name}`,
    state: describePhase(
      states[i].phase,
      r.plan.steps.length,
      r.plan.steps.map((st) => st.name),
    ),
  }));
  if (isMachineOutput(opts))
    return printDocument(ctx, opts.output, 'Simulation', {
      app: app.name,
      ...targetData(loc),
      states: described,
      ...simulationData(req, split, services, routes),
    });
  for (const d of described) ctx.stdout(`state: ${d.rollout} at ${d.state}\n`);
  ctx.stdout(`request: ${describeRequest(req, opts)}\n`);
  const line = (p: PodShare, prefix = '') =>
    `${(p.share * 100).toFixed(1).padStart(6)}%  ${prefix}service ${p.service} -> ${p.deployment ?? 'NO READY PODS'}\n`;
  if (services.length > 0) return services.forEach(({ role, pod }) => ctx.stdout(line(pod, role ? `${role} ` : '')));
  if (!split) return ctx.stdout(`no route matches this request; ${served(routes)}\n`);
  ctx.stdout(`rule: ${split.rule}\n`);
  for (const p of split.pods) ctx.stdout(line(p));
  // Mirrored copies: the share of these requests also copied to those pods (their answers are dropped).
  for (const p of split.mirror ?? []) ctx.stdout(line(p, 'mirror copy to '));
}

/** The request and where it went, as plain data with nulls (`simulate -o json`). */
function simulationData(
  req: SimRequest,
  split: ReturnType<typeof simulateRequest>,
  services: readonly { role: string | null; pod: PodShare }[],
  routes: RouteEndpoints,
): Record<string, unknown> {
  const pods = (list: readonly PodShare[] | undefined) =>
    (list ?? []).map((p) => ({ share: p.share, service: p.service, deployment: p.deployment ?? null }));
  return {
    request: { host: req.host ?? null, path: req.path, headers: req.headers, cookies: req.cookies, query: req.query },
    matched: split !== undefined,
    rule: split?.rule ?? null,
    pods: pods(split?.pods),
    mirror: pods(split?.mirror),
    services: services.map(({ role, pod }) => ({ role, ...pods([pod])[0] })),
    routes: { hosts: routes.hosts, paths: routes.paths },
  };
}

/** Without traffic providers the Services are the routes (Argo basic canary, blue-green): the pods each one selects. */
function servicePods(app: LoadedApp, objects: readonly KubeObject[]): { role: string | null; pod: PodShare }[] {
  return app.rollouts.flatMap((r): { role: string | null; pod: PodShare }[] => {
    const { stableService, canaryService } = r.spec.traffic;
    // Kruise without trafficRoutings names no Service: every Service selecting the workload's pods serves it.
    if (!stableService) return workloadServices(objects, r.spec.workload.name).map((pod) => ({ role: null, pod }));
    const roles = r.spec.blueGreen ? ['active', 'preview'] : ['stable', 'canary'];
    return [stableService, canaryService].flatMap((name, i) =>
      name ? podsOf(objects, name, 1).map((pod) => ({ role: roles[i], pod })) : [],
    );
  });
}

function workloadServices(objects: readonly KubeObject[], workload: string): PodShare[] {
  const ours = (p: PodShare) => p.deployment === workload || p.deployment === `${workload}-canary`;
  return objects
    .filter((o) => o.kind === 'Service')
    .map((svc) => podsOf(objects, svc.metadata.name, 1))
    .filter((pods) => pods.some(ours))
    .flat();
}

/** What the routes serve, so a request that matched nothing can be corrected. */
function served(r: RouteEndpoints): string {
  const hosts = r.hosts.length > 0 ? r.hosts.join(', ') : 'any (no host rules)';
  return `the routes serve hosts: ${hosts}; paths: ${r.paths.length > 0 ? r.paths.join(', ') : '/'}`;
}

function describeRequest(req: SimRequest, o: SimulateOptions): string {
  const from = (given: unknown) => (given === undefined ? " (the routes' own)" : '');
  const host = req.host ? `host ${req.host}${from(o.host)}` : 'no host';
  const path = `path ${req.path}${o.path === undefined && req.path !== '/' ? from(o.path) : ''}`;
  const extra = [
    ...Object.entries(req.headers).map(([k, v]) => `header ${k}=${v}`),
    ...Object.entries(req.cookies).map(([k, v]) => `cookie ${k}=${v}`),
    ...Object.entries(req.query).map(([k, v]) => `query ${k}=${v}`),
  ];
  return [host, path, ...extra].join(', ');
}

/** The request from the flags; host and path default to the routes' own when they have exactly one. */
function request(o: SimulateOptions, routes: RouteEndpoints): SimRequest {
  const host = o.host ?? (routes.hosts.length === 1 ? routes.hosts[0] : undefined);
  return {
    ...(host ? { host } : {}),
    path: o.path ?? (routes.paths.length === 1 ? routes.paths[0] : '/'),
    headers: pairs(o.header, true),
    cookies: pairs(o.cookie),
    query: pairs(o.query),
  };
}

function pairs(list: readonly string[] | undefined, lower = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new InputError([], `"${item}" must be key=value`);
    out[lower ? item.slice(0, eq).toLowerCase() : item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

/** Why simulate needs one app: for an app with targets, name the --target to pick. */
function oneAppMessage(locs: readonly { readonly target?: { readonly app: string; readonly name: string } }[]): string {
  const targets = locs.flatMap((l) => (l.target ? [l.target] : []));
  if (targets.length === locs.length && new Set(targets.map((t) => t.app)).size === 1)
    return `simulate evaluates one app; app ${targets[0].app} has targets ${targets.map((t) => t.name).join(', ')}: pick one with --target`;
  return 'simulate evaluates one app; name it';
}
