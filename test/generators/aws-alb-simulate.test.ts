import type { AlbOptions } from '../../generators/aws-alb/options';
import { albPaths, routesToAction } from '../../generators/aws-alb/ingress';
import type { SimRequest } from '../../src/contract/generator';
import { KubeObject } from '../../src/model/kube';
import { PlannedStep } from '../../src/model/plan';
import { RenderPhase } from '../../src/render/phase';
import { simulateRequest } from '../../src/simulate/simulate';
import { syncMoments } from '../../src/simulate/transition';
import type { LoadedApp, LoadedRollout } from '../../src/spec/loaded-app';
import { deadPods, generatorsOf, goldenCases, loadGoldenApp, objectsAt } from '../helpers/golden-app';

/** The aws-alb golden cases through the traffic simulator: each step's split, and no request to pods that are not ready. */
// The stable path of header-routes-stable-conditions takes only a source-ip range the simulated
// requests do not come from; test/generators/aws-alb-stable-conditions.test.ts simulates it.
const CASES = goldenCases('aws-alb').filter((c) => c !== 'header-routes-stable-conditions');
const load = (name: string) => loadGoldenApp('aws-alb', name);

/** A step number beyond a rollout's last step holds it at its last step, so apps with rollouts of different lengths line up. */
const stepPhase =
  (n: number) =>
  (r: LoadedRollout): RenderPhase =>
    n === 0 ? { kind: 'stable' } : { kind: 'step', step: Math.min(n, r.plan.steps.length) };

/** One request per host+path that the source Ingresses hand to this rollout's action. */
function entryRequests(app: LoadedApp, r: LoadedRollout): SimRequest[] {
  const options = r.providers[0].options as AlbOptions;
  const action = options.rootService ?? r.spec.traffic.stableService ?? '';
  return options.ingresses.flatMap((name) =>
    albPaths(app.resources.find('Ingress', name, r.spec.namespace)!.object)
      .filter((p) => routesToAction(p, action))
      .map((p) => ({
        host: p.host,
        path: (p.path ?? '/').replace(/\*$/, '') || '/',
        headers: {},
        cookies: {},
        query: {},
      })),
  );
}

function canaryShare(
  app: LoadedApp,
  r: LoadedRollout,
  objects: readonly KubeObject[],
  req: SimRequest,
  ready?: ReadonlySet<string>,
): number {
  const split = simulateRequest(objects, generatorsOf(app), req, ready);
  if (!split) throw new Error(`no route matched ${req.host}${req.path}`);
  return split.pods.filter((p) => p.deployment === `${r.spec.workload.name}-canary`).reduce((n, p) => n + p.share, 0);
}

/** A header value that each match of a route accepts: the exact value, or the prefix plus something. */
function headerRequests(base: SimRequest, step: PlannedStep): SimRequest[] {
  return step.traffic.headerRoutes.flatMap((route) =>
    route.matches.flatMap((m) =>
      m.headers.map((h) => ({
        ...base,
        headers: { [h.name.toLowerCase()]: h.type === 'Prefix' ? `${h.value}x` : h.value },
      })),
    ),
  );
}

describe.each(CASES)('aws-alb simulator: %s', (name) => {
  const app = load(name);
  const steps = Math.max(...app.rollouts.map((r) => r.plan.steps.length));

  test.each(app.rollouts.flatMap((r) => r.plan.steps.map((s) => [r.spec.name, s.index, r, s] as const)))(
    '%s step %i: the planned share reaches the canary, header routes all of it',
    (_n, index, r, step) => {
      const objects = objectsAt(app, stepPhase(index));
      for (const entry of entryRequests(app, r)) {
        expect(canaryShare(app, r, objects, { ...entry, headers: { 'x-other': '1' } })).toBeCloseTo(
          step.traffic.weight / step.traffic.weightTotal,
          6,
        );
        for (const req of headerRequests(entry, step)) expect(canaryShare(app, r, objects, req)).toBe(1);
      }
    },
  );

  test('stable only: nothing reaches a canary, header routes are gone', () => {
    const objects = objectsAt(app, stepPhase(0));
    const last = (r: LoadedRollout) => r.plan.steps[r.plan.steps.length - 1];
    for (const r of app.rollouts) {
      for (const entry of entryRequests(app, r)) {
        for (const req of [entry, ...r.plan.steps.flatMap((s) => headerRequests(entry, s))])
          expect(canaryShare(app, r, objects, req)).toBe(0);
      }
      expect(last(r)).toBeDefined();
    }
  });

  /**
   * ALB routes live on the Ingress, which clean-up and abort change rather than delete; the canary
   * workloads carry PruneLast, so even a prune-first sync applies the Ingress before deleting them.
   */
  test('no request reaches a backend without ready pods across adjacent states, in both prune orders', () => {
    const phases: [string, (r: LoadedRollout) => RenderPhase][] = [['stable', stepPhase(0)]];
    for (let n = 1; n <= steps; n++) phases.push([`step ${n}`, stepPhase(n)]);
    phases.push(['promoting', (r) => ({ kind: 'promoting', step: r.plan.steps.length })], ['clean-up', stepPhase(0)]);
    const pairs = phases.slice(1).map((p, i) => [phases[i], p] as const);
    pairs.push([
      [`abort at step ${Math.min(2, steps)}`, stepPhase(Math.min(2, steps))],
      ['stable', stepPhase(0)],
    ]);
    const requests = app.rollouts.flatMap((r) =>
      entryRequests(app, r).flatMap((e) => [e, ...r.plan.steps.flatMap((s) => headerRequests(e, s))]),
    );
    const unsafe = new Set<string>();
    let checked = 0;
    for (const [[fromName, from], [toName, to]] of pairs) {
      for (const moment of syncMoments(objectsAt(app, from), objectsAt(app, to))) {
        for (const req of requests) {
          const split = simulateRequest(moment.objects, generatorsOf(app), req, moment.ready);
          expect(split).toBeDefined();
          if (deadPods(split).length > 0) unsafe.add(`${fromName} -> ${toName}: ${moment.label}`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(pairs.length * requests.length);
    expect([...unsafe]).toEqual([]);
  });
});

test('the transition model catches an action pointing at canary pods that are not ready yet', () => {
  const app = load('argo-weights');
  const entry = entryRequests(app, app.rollouts[0])[0];
  // A broken renderer that applies the weighted Ingress in the same wave as the new canary Deployment.
  const broken = objectsAt(app, stepPhase(2)).map((o) =>
    o.kind === 'Ingress'
      ? {
          ...o,
          metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, 'argocd.argoproj.io/sync-wave': '0' } },
        }
      : o,
  );
  const unsafe = (after: readonly KubeObject[]) =>
    syncMoments(objectsAt(app, stepPhase(0)), after).some(
      (m) => deadPods(simulateRequest(m.objects, generatorsOf(app), entry, m.ready)).length > 0,
    );
  expect(unsafe(broken)).toBe(true);
  expect(unsafe(objectsAt(app, stepPhase(2)))).toBe(false);
});
