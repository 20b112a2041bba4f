import type { KubeObject } from '../src/model/kube';
import { SYNC_OPTIONS } from '../src/model/track';
import type { RenderPhase } from '../src/render/phase';
import { podsOf } from '../src/simulate/simulate';
import { ClusterMoment, fluxMoments, syncMoments } from '../src/simulate/transition';
import type { LoadedApp } from '../src/spec/loaded-app';
import { loadGoldenApp, objectsAt } from './helpers/golden-app';
import { expectNoDeadBackends, lifecycleTransitions } from './helpers/transitions';

/**
 * Blue-green traffic safety, proved with the simulator: at every moment of every sync between two
 * adjacent states (preview up, switch, scale down old, clean-up, abort from preview and from the
 * switch), under both Argo CD prune orders and the Flux split, each Service the rollout routes by
 * (active, preview) selects ready pods. Argo blue-green has no traffic provider: its Services are
 * the routes, so a request to each Service is followed to the Deployments it selects.
 */
const ARGO_CASES = ['argo-blue-green-preview', 'argo-blue-green-active-only'];

const stable: RenderPhase = { kind: 'stable' };
const preview: RenderPhase = { kind: 'step', step: 1 };
const switched: RenderPhase = { kind: 'step', step: 2 };
const scaleDown: RenderPhase = { kind: 'promoting', step: 2 };
const drain = (step: number): RenderPhase => ({ kind: 'draining', step });

type Pair = readonly [RenderPhase, RenderPhase];
type Moments = (before: readonly KubeObject[], after: readonly KubeObject[]) => ClusterMoment[];

/** The Services of the app's rollouts that select no ready pods at some moment of some pair. */
function deadServices(app: LoadedApp, pairs: readonly Pair[], moments: Moments, edit = (o: KubeObject[]) => o) {
  const services = app.rollouts.flatMap((r) => [r.spec.traffic.stableService, r.spec.traffic.canaryService]);
  const dead: string[] = [];
  let checked = 0;
  for (const [from, to] of pairs) {
    for (const m of moments(edit(objectsAt(app, from)), edit(objectsAt(app, to)))) {
      for (const svc of services.filter((s): s is string => s !== undefined)) {
        checked++;
        if (podsOf(m.objects, svc, 1, m.ready).some((p) => !p.deployment))
          dead.push(`${from.kind}${'step' in from ? from.step : ''} -> ${to.kind}: ${m.label}: ${svc}`);
      }
    }
  }
  expect(checked).toBeGreaterThan(pairs.length);
  return dead;
}

/** One-commit removal (Argo CD): the whole life and both aborts, delayed (abortScaleDownDelaySeconds) or not (0). */
const ARGO_CD_PAIRS: Pair[] = [
  [stable, preview],
  [preview, switched],
  [switched, scaleDown],
  [scaleDown, stable],
  [preview, stable],
  [switched, stable],
  [preview, drain(1)],
  [drain(1), stable],
  [switched, drain(2)],
  [drain(2), stable],
];

/** Two-commit removal (Flux): clean-up and aborts move the Services first, then remove the preview Deployment. */
const FLUX_PAIRS: Pair[] = [
  [stable, preview],
  [preview, switched],
  [switched, scaleDown],
  [scaleDown, drain(2)],
  [drain(2), stable],
  [preview, drain(1)],
  [drain(1), stable],
  [switched, drain(2)],
];

describe.each(ARGO_CASES)('Argo blue-green %s', (name) => {
  const app = loadGoldenApp('core', name);

  test('the switch is one commit: the active Service selects the old pods, then the new ones', () => {
    const selected = (phase: RenderPhase) =>
      podsOf(objectsAt(app, phase), app.rollouts[0].spec.traffic.stableService!, 1).map((p) => p.deployment);
    const workload = app.rollouts[0].spec.workload.name;
    expect([stable, preview, switched, scaleDown].map(selected)).toEqual([
      [workload],
      [workload],
      [`${workload}-canary`],
      [`${workload}-canary`],
    ]);
  });

  test('Argo CD, both prune orders: no Service ever selects a backend without ready pods', () => {
    expect(deadServices(app, ARGO_CD_PAIRS, syncMoments)).toEqual([]);
  });

  test('Flux split with two-commit removal: no Service ever selects a backend without ready pods', () => {
    expect(deadServices(app, FLUX_PAIRS, fluxMoments)).toEqual([]);
  });

  // Negative controls: the same proof catches an ordering that is broken on purpose.
  test('negative control: one-commit removal under Flux prunes the new pods before the active Service leaves them', () => {
    expect(deadServices(app, [[scaleDown, stable]], fluxMoments).length).toBeGreaterThan(0);
  });

  test('negative control: without PruneLast, Argo CD pruning first removes the pods the active Service selects', () => {
    const withoutPruneLast = (objects: KubeObject[]) =>
      objects.map((o) => {
        const { [SYNC_OPTIONS]: _dropped, ...annotations } = o.metadata.annotations ?? {};
        return { ...o, metadata: { ...o.metadata, annotations } };
      });
    const dead = deadServices(app, [[switched, stable]], syncMoments, withoutPruneLast);
    expect(dead.some((d) => d.includes('prune first'))).toBe(true);
  });
});

describe.each([
  ['ingress-nginx', 'kruise-v1beta1-blue-green'],
  ['gateway-api', 'kruise-blue-green-matches'],
])('Kruise blue-green %s/%s', (provider, name) => {
  const app = loadGoldenApp(provider, name);
  const steps = app.rollouts[0].plan.steps.length;
  const base = { path: '/', headers: {}, cookies: {}, query: {} };
  const requests = [
    { ...base, host: 'echo.example.com' },
    { ...base, host: 'echo.example.com', headers: { 'x-preview': 'on' } },
  ];

  test('every adjacent pair of states, both prune orders and an abort from each step, sends no request to a backend without ready pods', () => {
    const transitions = [
      ...lifecycleTransitions(steps),
      ...Array.from({ length: steps }, (_, i) => [{ kind: 'step', step: i + 1 }, stable] as const),
    ];
    expectNoDeadBackends(app, transitions, requests);
  });
});
