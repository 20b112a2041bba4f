import type { SimRequest } from '../src/contract/generator';
import { KubeObject } from '../src/model/kube';
import { PlannedStep } from '../src/model/plan';
import type { LoadedApp } from '../src/spec/loaded-app';
import type { RouteMatch, ValueMatch } from '../src/model/rollout';
import {
  canaryShare as shareOf,
  generatorsOf,
  goldenCases,
  loadGoldenApp,
  objectsAt,
  plannedCanaryShare,
} from './helpers/golden-app';
import { expectNoDeadBackends, lifecycleTransitions } from './helpers/transitions';

/** The simulator proof of test/simulate.test.ts, over the higress and mse golden cases, with query parameters. */
const CASES = ['higress', 'mse'].flatMap((p) => goldenCases(p).map((c) => `${p}/${c}`));
const HOST = 'echo.example.com';

function load(providerAndCase: string): LoadedApp {
  const [provider, name] = providerAndCase.split('/');
  return loadGoldenApp(provider, name);
}

interface Parts {
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  query?: Record<string, string>;
}
const request = (p: Parts = {}): SimRequest => ({
  host: HOST,
  path: '/',
  headers: p.headers ?? {},
  cookies: p.cookies ?? {},
  query: p.query ?? {},
});

/** A value each golden regex accepts (the regexes are whole-value matches, as Envoy evaluates them). */
const REGEX_SAMPLES: Record<string, string> = { '.*pc.*': 'a-pc-b', '[0-9]*7': '1237' };
function sample(m: ValueMatch): string {
  if (m.type === 'Exact') return m.value;
  const s = REGEX_SAMPLES[m.value];
  if (s === undefined) throw new Error(`add a sample for regex ${m.value}`);
  return s;
}

/** One request that satisfies every condition of the match. */
function satisfying(m: RouteMatch): SimRequest {
  const pairs = (list: readonly ValueMatch[]) => Object.fromEntries(list.map((v) => [v.name, sample(v)]));
  return request({
    headers: pairs(m.headers),
    query: pairs(m.queryParams),
    cookies: Object.fromEntries(m.cookies.map((c) => [c.name, 'always'])),
  });
}

const canaryShare = (app: LoadedApp, objects: readonly KubeObject[], req: SimRequest): number =>
  shareOf(objects, generatorsOf(app), req);

function requestsFor(steps: readonly PlannedStep[]): SimRequest[] {
  return [request(), ...steps.flatMap((s) => s.traffic.matches.map(satisfying))];
}

describe.each(CASES)('simulator: %s', (name) => {
  const app = load(name);
  const rollout = app.rollouts[0];

  test.each(rollout.plan.steps.map((s) => [s.index, s] as const))(
    'step %i sends exactly the planned share to the canary',
    (_i, step) => {
      const objects = objectsAt(app, { kind: 'step', step: step.index });
      expect(canaryShare(app, objects, request({ headers: { 'x-other': '1' } }))).toBeCloseTo(
        plannedCanaryShare(step),
        6,
      );
      for (const m of step.traffic.matches) expect(canaryShare(app, objects, satisfying(m))).toBe(1);
    },
  );

  test('a request meeting only part of an ANDed match gets the weighted share, not the canary', () => {
    const anded = rollout.plan.steps.filter((s) =>
      s.traffic.matches.some((m) => m.headers.length > 0 && m.queryParams.length > 0),
    );
    for (const step of anded) {
      const objects = objectsAt(app, { kind: 'step', step: step.index });
      const m = step.traffic.matches[0];
      const { headers } = satisfying(m);
      expect(canaryShare(app, objects, request({ headers }))).toBeCloseTo(
        step.traffic.weight / step.traffic.weightTotal,
        6,
      );
    }
    expect(anded.length > 0).toBe(name === 'mse/kruise-query');
  });

  test('stable only and after clean-up: nothing reaches a canary', () => {
    for (const req of requestsFor(rollout.plan.steps))
      expect(canaryShare(app, objectsAt(app, { kind: 'stable' }), req)).toBe(0);
  });

  test('no request reaches a backend without ready pods, across every pair of adjacent states', () => {
    // The abort leaves from step 3, which has two canary Ingresses.
    expectNoDeadBackends(app, lifecycleTransitions(rollout.plan.steps.length, 3), requestsFor(rollout.plan.steps));
  });
});
