import { defaultGatePolicy } from '../../src/plan/gates';
import { buildPlan } from '../../src/plan/plan';
import { Plan } from '../../src/model/plan';
import { argo, argoRollout, kruise, kruiseV1alpha1, kruiseV1beta1 } from './helpers';

/** [canary, stable] per step. */
const pods = (plan: Plan): [number, number][] => plan.steps.map((s) => [s.canaryReplicas, s.stableReplicas]);

describe('buildPlan: Kruise replicas (reference §5.1)', () => {
  test('GIVEN 10 replicas, canary style WHEN steps are 20%, 25%, 1%, 5, 100% THEN canary 2, 3, 1, 5, 10 and stable keeps 10', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- replicas: 20%
- replicas: 25%
- replicas: 1%
- replicas: 5
- replicas: 100%`),
    );
    expect(rollout.style).toBe('canary');
    const plan = buildPlan(rollout, 10);
    expect(pods(plan)).toEqual([
      [2, 10],
      [3, 10],
      [1, 10],
      [5, 10],
      [10, 10],
    ]);
    expect(plan.steps.map((s) => s.index)).toEqual([1, 2, 3, 4, 5]);
    expect(plan).toMatchObject({
      rollout: 'rollouts-demo',
      format: 'kruise-v1alpha1',
      workload: 'echoserver',
      style: 'canary',
      replicas: 10,
      providers: ['ingress-nginx'],
    });
  });

  test('GIVEN 5 replicas WHEN steps are 20%, 30%, 50% and int 7 THEN canary 1, 2, 3 and 5 (clamped)', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- replicas: 20%\n- replicas: 30%\n- replicas: 50%\n- replicas: 7`));
    expect(pods(buildPlan(rollout, 5))).toEqual([
      [1, 5],
      [2, 5],
      [3, 5],
      [5, 5],
    ]);
  });

  test('GIVEN v1alpha1 weight steps without replicas WHEN planned with 10 replicas THEN replicas follow weight%, rounded up', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- weight: 5\n- weight: 33\n- weight: 100`));
    expect(pods(buildPlan(rollout, 10))).toEqual([
      [1, 10],
      [4, 10],
      [10, 10],
    ]);
    expect(buildPlan(rollout, 10).steps.map((s) => s.traffic.weight)).toEqual([5, 33, 100]);
  });

  test('GIVEN partition style (v1beta1 default) and 10 replicas WHEN steps are 20%, 25%, 5, 100% THEN stable = total - canary', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 20%\n  traffic: 20%\n- replicas: 25%\n- replicas: 5\n- replicas: 100%`),
    );
    expect(rollout.style).toBe('partition');
    expect(pods(buildPlan(rollout, 10))).toEqual([
      [2, 8],
      [3, 7],
      [5, 5],
      [10, 0],
    ]);
  });

  test('GIVEN partition style and 5 replicas WHEN an int step of 7 THEN canary 5 and stable 0 (never negative)', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 7`));
    expect(pods(buildPlan(rollout, 5))).toEqual([[5, 0]]);
  });

  test('GIVEN v1beta1 enableExtraWorkloadForCanary WHEN 20% of 10 THEN canary 2 and stable keeps all 10', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 20%\n  traffic: 20%`, { canaryExtra: 'enableExtraWorkloadForCanary: true' }),
    );
    expect(pods(buildPlan(rollout, 10))).toEqual([[2, 10]]);
  });

  test('GIVEN a Kruise step with a match and replicas 0 WHEN planned THEN at least 1 canary pod because the step routes traffic', () => {
    // replicas 0 is rejected by the schema; buildPlan still keeps the floor for a routed step
    const { rollout } = kruise(
      kruiseV1alpha1(`- replicas: 0\n  matches:\n  - headers:\n    - name: x-canary\n      value: "on"`),
    );
    expect(pods(buildPlan(rollout, 10))).toEqual([[1, 10]]);
  });
});

describe('buildPlan: Argo with traffic routing (reference §1.3)', () => {
  test.each([
    [10, 5, 1],
    [10, 33, 4],
    [4, 25, 1],
    [3, 50, 2],
    [10, 100, 10],
    [10, 0, 0],
  ])('GIVEN %i replicas WHEN setWeight %i THEN canary %i and stable keeps all', (replicas, weight, canary) => {
    const { rollout } = argo(argoRollout(`- setWeight: ${weight}`, { replicas }));
    const plan = buildPlan(rollout, replicas);
    expect(pods(plan)).toEqual([[canary, replicas]]);
    expect(plan.steps[0].traffic.weight).toBe(weight);
  });

  test('GIVEN 10 replicas WHEN setCanaryScale {weight: 25} then setWeight 5 THEN canary 3/10 for both steps (scale wins over weight)', () => {
    const { rollout } = argo(argoRollout(`- setCanaryScale: {weight: 25}\n- setWeight: 5`));
    expect(pods(buildPlan(rollout, 10))).toEqual([
      [3, 10],
      [3, 10],
    ]);
  });

  test('GIVEN setCanaryScale {replicas: 2} then matchTrafficWeight WHEN setWeight 50 on 10 THEN 2 then 5 canary pods', () => {
    const { rollout } = argo(
      argoRollout(`- setCanaryScale: {replicas: 2}\n- setWeight: 50\n- setCanaryScale: {matchTrafficWeight: true}`),
    );
    expect(pods(buildPlan(rollout, 10))).toEqual([
      [2, 10],
      [2, 10],
      [5, 10],
    ]);
  });

  test('GIVEN setCanaryScale {replicas: 0} and setWeight 10 WHEN planned THEN 1 canary pod because traffic > 0', () => {
    const { rollout } = argo(argoRollout(`- setCanaryScale: {replicas: 0}\n- setWeight: 10`));
    expect(pods(buildPlan(rollout, 10))).toEqual([
      [0, 10],
      [1, 10],
    ]);
  });

  test('GIVEN maxTrafficWeight 200 WHEN setWeight 50 on 10 replicas THEN ceil(10*50/200) = 3 canary pods and weight 50/200', () => {
    const { rollout } = argo(
      argoRollout(`- setWeight: 50`, {
        routing: `trafficRouting:\n  maxTrafficWeight: 200\n  nginx:\n    stableIngress: echoserver`,
      }),
    );
    const plan = buildPlan(rollout, 10);
    expect(pods(plan)).toEqual([[3, 10]]);
    expect(plan.steps[0].traffic).toMatchObject({ weight: 50, weightTotal: 200 });
  });

  // BUG (src/spec/argo.ts canaryScale + src/plan/replicas.ts resolveAmount): setCanaryScale.weight is in
  // maxTrafficWeight units in Argo (argo-rollouts.md §1.3: `weight: p` -> ceil(spec.replicas x p / maxWeight)),
  // but it is normalized to `{percent: p}` and resolved against 100, so 250 of 1000 on 10 replicas gives 10, not 3.
  test('GIVEN maxTrafficWeight 1000 WHEN setCanaryScale {weight: 250} on 10 replicas THEN ceil(10*250/1000) = 3 canary pods', () => {
    const { rollout } = argo(
      argoRollout(`- setCanaryScale: {weight: 250}`, {
        routing: `trafficRouting:\n  maxTrafficWeight: 1000\n  nginx:\n    stableIngress: echoserver`,
      }),
    );
    expect(pods(buildPlan(rollout, 10))).toEqual([[3, 10]]);
  });

  test('GIVEN a header route with weight 0 WHEN planned THEN 1 canary pod because the route sends requests to the canary', () => {
    const { rollout } = argo(
      argoRollout(
        `- setHeaderRoute:\n    name: hdr\n    match:\n    - headerName: x-canary\n      headerValue: {exact: "on"}`,
        {
          routing: `trafficRouting:\n  managedRoutes:\n  - name: hdr\n  istio:\n    virtualService: {name: vs}`,
        },
      ),
    );
    expect(pods(buildPlan(rollout, 10))).toEqual([[1, 10]]);
  });

  // BUG (src/plan/plan.ts planStep): `carries` counts weight, matches and header routes but not mirror routes, so a
  // mirror-only step (weight 0) plans 0 canary pods while its route mirrors requests to the canary Service.
  // PRODUCT.md: "at least 1 when traffic > 0" / "No request may be sent to a backend without ready pods";
  // src/model/plan.ts hasCanaryRoutes already counts mirror routes as canary routes.
  test('GIVEN a mirror route with weight 0 WHEN planned THEN 1 canary pod because mirrored requests reach the canary', () => {
    const { rollout } = argo(
      argoRollout(`- setMirrorRoute:\n    name: mirror\n    percentage: 50\n    match:\n    - method: {exact: GET}`, {
        routing: `trafficRouting:\n  managedRoutes:\n  - name: mirror\n  istio:\n    virtualService: {name: vs}`,
      }),
    );
    expect(pods(buildPlan(rollout, 10))).toEqual([[1, 10]]);
  });
});

describe('buildPlan: Argo without trafficRouting (basic canary)', () => {
  const basic = (steps: string) => argo(argoRollout(steps, { routing: null })).rollout;

  test('GIVEN no trafficRouting WHEN planned THEN partition style, no providers and every step shares the stable Service', () => {
    const plan = buildPlan(basic(`- setWeight: 20`), 10);
    expect(plan.style).toBe('partition');
    expect(plan.providers).toEqual([]);
    expect(plan.steps[0].serviceSelection).toBe('shared');
    expect(plan.steps[0].traffic.weight).toBe(0);
  });

  test.each([
    [10, 1, 1, 9],
    [10, 20, 2, 8],
    [10, 50, 5, 5],
    [10, 99, 9, 1],
    [10, 100, 10, 0],
    [10, 0, 0, 10],
    [3, 50, 2, 1],
    [2, 1, 1, 1],
    [2, 99, 1, 1],
    [4, 25, 1, 3],
  ])('GIVEN %i replicas WHEN setWeight %i THEN canary %i and stable %i', (total, weight, canary, stable) => {
    expect(pods(buildPlan(basic(`- setWeight: ${weight}`), total))).toEqual([[canary, stable]]);
  });

  test('GIVEN 1 replica WHEN setWeight 50 THEN the single pod moves (1/0): one pod cannot be on both sides', () => {
    expect(pods(buildPlan(basic(`- setWeight: 50`), 1))).toEqual([[1, 0]]);
  });
});

describe('buildPlan: gates', () => {
  test('GIVEN Kruise pause {}, a duration, duration 0 WHEN planned THEN manual, after N seconds, automatic', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(
        `- weight: 10\n  pause: {}\n- weight: 20\n  pause: {duration: 600}\n- weight: 30\n  pause: {duration: 0}\n- weight: 40\n  pause: {}`,
      ),
    );
    expect(buildPlan(rollout, 10).steps.map((s) => s.gate)).toEqual([
      { kind: 'manual' },
      { kind: 'timed', seconds: 600 },
      { kind: 'automatic' },
      { kind: 'manual' },
    ]);
  });

  test('GIVEN a last Kruise step with replicas "100%" and pause {} WHEN planned THEN its gate is automatic', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 20%\n  pause: {}\n- replicas: "100%"\n  pause: {}`));
    expect(buildPlan(rollout, 10).steps.map((s) => s.gate.kind)).toEqual(['manual', 'automatic']);
  });

  test('GIVEN a last v1alpha1 step with weight 100 and no replicas WHEN planned THEN automatic (replicas converts to "100%")', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- weight: 20\n- weight: 100`));
    expect(buildPlan(rollout, 10).steps.map((s) => s.gate.kind)).toEqual(['manual', 'automatic']);
  });

  test('GIVEN a last Kruise step with the literal int 100 WHEN planned THEN it is NOT automatic (manual by default)', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 20%\n- replicas: 100`));
    expect(buildPlan(rollout, 100).steps.map((s) => s.gate.kind)).toEqual(['manual', 'manual']);
  });

  test('GIVEN a Kruise "100%" step that is not the last WHEN planned THEN it keeps its pause gate', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 100%\n  pause: {}\n- replicas: 100%\n  traffic: 100%`));
    expect(buildPlan(rollout, 10).steps.map((s) => s.gate.kind)).toEqual(['manual', 'automatic']);
  });

  test('GIVEN Kruise steps without pause WHEN planned with the default policy THEN manual; with unpaused: automatic THEN automatic', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- weight: 10\n- weight: 20\n  pause: {}\n- weight: 30\n  pause: {duration: 60}\n- weight: 40`),
    );
    expect(buildPlan(rollout, 10).steps.map((s) => s.gate.kind)).toEqual(['manual', 'manual', 'timed', 'manual']);
    const policy = { firstStep: 'manual' as const, unpaused: 'automatic' as const };
    expect(buildPlan(rollout, 10, policy).steps.map((s) => s.gate)).toEqual([
      { kind: 'automatic' },
      { kind: 'manual' },
      { kind: 'timed', seconds: 60 },
      { kind: 'automatic' },
    ]);
  });

  test('GIVEN Argo steps without pause WHEN planned THEN automatic even with the default policy; pause {} manual; durations timed', () => {
    const { rollout } = argo(
      argoRollout(
        `- setWeight: 10\n- setWeight: 20\n- pause: {}\n- setWeight: 40\n- pause: {duration: 10m}\n- setWeight: 60\n- pause: {duration: 0}\n- setWeight: 100`,
      ),
    );
    expect(buildPlan(rollout, 10, defaultGatePolicy).steps.map((s) => s.gate)).toEqual([
      { kind: 'automatic' },
      { kind: 'manual' },
      { kind: 'timed', seconds: 600 },
      { kind: 'automatic' },
      { kind: 'automatic' },
    ]);
  });

  test('GIVEN an Argo last step setCanaryScale {weight: 100} WHEN planned THEN the Kruise "100%" rule does not apply (pause {} stays manual)', () => {
    const { rollout } = argo(argoRollout(`- setWeight: 100\n- setCanaryScale: {weight: 100}\n- pause: {}`));
    expect(buildPlan(rollout, 10).steps.map((s) => s.gate.kind)).toEqual(['automatic', 'manual']);
  });

  test('GIVEN the default policy WHEN planned THEN startGate is manual; with firstStep automatic THEN automatic', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- weight: 10`));
    expect(defaultGatePolicy).toEqual({ firstStep: 'manual', unpaused: 'manual' });
    expect(buildPlan(rollout, 10).startGate).toEqual({ kind: 'manual' });
    expect(buildPlan(rollout, 10, { firstStep: 'automatic', unpaused: 'manual' }).startGate).toEqual({
      kind: 'automatic',
    });
    const argoPlan = buildPlan(argo(argoRollout(`- setWeight: 10`)).rollout, 10, {
      firstStep: 'automatic',
      unpaused: 'manual',
    });
    expect(argoPlan.startGate).toEqual({ kind: 'automatic' });
  });
});

describe('buildPlan: service selection', () => {
  test('GIVEN Kruise steps with and without traffic/matches WHEN planned THEN only steps without either share the stable Service', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 1
- replicas: 2
  traffic: 20%
- replicas: 3
  matches:
  - headers:
    - name: x-canary
      value: "on"
- replicas: 50%`),
    );
    expect(buildPlan(rollout, 10).steps.map((s) => s.serviceSelection)).toEqual(['shared', 'split', 'split', 'shared']);
  });

  test('GIVEN a Kruise rollout without trafficRoutings WHEN planned THEN every step is shared, even with traffic, and weight is 0', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- weight: 20\n- weight: 50`, { routing: null }));
    const plan = buildPlan(rollout, 10);
    expect(plan.steps.map((s) => s.serviceSelection)).toEqual(['shared', 'shared']);
    expect(plan.steps.map((s) => s.traffic.weight)).toEqual([0, 0]);
    expect(pods(plan)).toEqual([
      [2, 10],
      [5, 10],
    ]);
  });

  test('GIVEN an Argo rollout with nginx WHEN planned THEN every step is split', () => {
    const { rollout } = argo(argoRollout(`- setCanaryScale: {replicas: 1}\n- setWeight: 20`));
    expect(buildPlan(rollout, 10).steps.map((s) => s.serviceSelection)).toEqual(['split', 'split']);
  });

  test('GIVEN a Kruise step WHEN planned THEN its traffic state carries matches, weight total and the header modifier', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 1
  traffic: 10%
  matches:
  - headers:
    - name: x-canary
      value: "on"
  requestHeaderModifier:
    set:
    - name: x-env
      value: canary`),
    );
    const t = buildPlan(rollout, 10).steps[0].traffic;
    expect(t).toEqual({
      weight: 10,
      weightTotal: 100,
      matches: [{ headers: [{ name: 'x-canary', type: 'Exact', value: 'on' }], queryParams: [], cookies: [] }],
      headerRoutes: [],
      mirrorRoutes: [],
      requestHeaderModifier: { set: [{ name: 'x-env', value: 'canary' }], add: [], remove: [] },
    });
  });
});
