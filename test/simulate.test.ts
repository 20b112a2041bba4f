import type { SimRequest } from '../src/contract/generator';
import { KubeObject } from '../src/model/kube';
import { PlannedStep } from '../src/model/plan';
import { simulateRequest } from '../src/simulate/simulate';
import { syncMoments } from '../src/simulate/transition';
import type { LoadedApp } from '../src/spec/loaded-app';
import {
  canaryShare as shareOf,
  deadPods,
  generatorsOf,
  goldenCases,
  loadGoldenApp,
  objectsAt,
  plannedCanaryShare,
} from './helpers/golden-app';
import { expectNoDeadBackends, lifecycleTransitions } from './helpers/transitions';

const CASES = goldenCases('ingress-nginx');
const HOST = 'echo.example.com';
const load = (name: string): LoadedApp => loadGoldenApp('ingress-nginx', name);

const request = (headers: Record<string, string> = {}, cookies: Record<string, string> = {}): SimRequest => ({
  host: HOST,
  path: '/',
  headers,
  cookies,
  query: {},
});

const canaryShare = (app: LoadedApp, objects: readonly KubeObject[], req: SimRequest): number =>
  shareOf(objects, generatorsOf(app), req);

/** Requests that exercise every match of a step: one per header/cookie condition, plus a plain one. */
function requestsFor(steps: readonly PlannedStep[]): SimRequest[] {
  const out = [request()];
  for (const s of steps) {
    for (const m of s.traffic.matches) {
      for (const h of m.headers) out.push(request({ [h.name.toLowerCase()]: h.type === 'Exact' ? h.value : 'a-pc-b' }));
      for (const c of m.cookies) out.push(request({}, { [c.name]: 'always' }));
    }
  }
  return out;
}

describe.each(CASES)('simulator: %s', (name) => {
  const app = load(name);
  const rollout = app.rollouts[0];

  test.each(rollout.plan.steps.map((s) => [s.index, s] as const))(
    'step %i sends exactly the planned share to the canary',
    (_i, step) => {
      const objects = objectsAt(app, { kind: 'step', step: step.index });
      expect(canaryShare(app, objects, request({ 'x-other': '1' }))).toBeCloseTo(plannedCanaryShare(step), 6);
      for (const m of step.traffic.matches) {
        for (const h of m.headers)
          expect(
            canaryShare(app, objects, request({ [h.name.toLowerCase()]: h.type === 'Exact' ? h.value : 'a-pc-b' })),
          ).toBe(1);
        for (const c of m.cookies) expect(canaryShare(app, objects, request({}, { [c.name]: 'always' }))).toBe(1);
      }
    },
  );

  test('stable only and after clean-up: nothing reaches a canary', () => {
    expect(canaryShare(app, objectsAt(app, { kind: 'stable' }), request())).toBe(0);
  });

  test('no request reaches a backend without ready pods, across every pair of adjacent states', () => {
    expectNoDeadBackends(app, lifecycleTransitions(rollout.plan.steps.length, 2), requestsFor(rollout.plan.steps));
  });
});

test('the transition model catches a route that points at pods not yet ready', () => {
  const app = load('kruise-v1alpha1-canary');
  const before = objectsAt(app, { kind: 'stable' });
  // A broken renderer that puts the canary Ingress in the same wave as the canary Deployment.
  const after = objectsAt(app, { kind: 'step', step: 1 }).map((o) =>
    o.kind === 'Ingress' && o.metadata.name.endsWith('-canary')
      ? {
          ...o,
          metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, 'argocd.argoproj.io/sync-wave': '0' } },
        }
      : o,
  );
  const unsafe = syncMoments(before, after).some(
    (m) => deadPods(simulateRequest(m.objects, generatorsOf(app), request(), m.ready)).length > 0,
  );
  expect(unsafe).toBe(true);
});
