import { Plan, PlannedStep, stableTraffic } from '../../src/model/plan';
import { RolloutStatus } from '../../src/state/status';
import { StatusInput, rolloutView } from '../../src/state/status-view';

/** The pure status view: phases named truthfully, gates with the time left, health and analysis holding a gate. */
const step = (index: number, weight: number, gate: PlannedStep['gate']): PlannedStep => ({
  index,
  canaryReplicas: index,
  stableReplicas: 4,
  traffic: { ...stableTraffic(100), weight },
  serviceSelection: 'split',
  gate,
});
const PLAN: Plan = {
  rollout: 'demo',
  format: 'argo',
  workload: 'web',
  style: 'canary',
  strategy: 'canary',
  replicas: 4,
  providers: ['istio'],
  startGate: { kind: 'manual' },
  steps: [step(1, 25, { kind: 'timed', seconds: 60 }), step(2, 50, { kind: 'automatic' })],
};
const NOW = new Date('2026-05-01T12:00:00Z');
const status = (over: Partial<RolloutStatus>): RolloutStatus => ({
  name: 'demo',
  phase: 'Progressing',
  step: 1,
  steps: 2,
  stableRevision: 'old',
  canaryRevision: 'new',
  ...over,
});
const input = (over: Partial<StatusInput>): StatusInput => ({
  app: 'web',
  target: 'web',
  plan: PLAN,
  status: status({}),
  sourceRevision: 'new',
  workloads: { stable: null, canary: null },
  sourceImages: [],
  mode: { name: 'local', why: 'test' },
  landedAt: new Date(NOW.getTime() - 20_000),
  now: NOW,
  signals: null,
  github: { looked: false, why: 'offline' },
  drift: [],
  ...over,
});

test('a timed gate with time left is Paused, with the seconds left counted from the landing', () => {
  const v = rolloutView(input({}));
  expect(v).toMatchObject({ phase: 'Paused', step: 1, traffic: { weight: 25 }, replicas: { canary: 1, stable: 4 } });
  expect(v.gate).toMatchObject({ before: 'step 2', kind: 'timed', remaining: 40, passed: false });
});

test('health waiting holds a passed timed gate: Progressing, saying what it waits for', () => {
  const signals = { health: { state: 'waiting' as const, detail: 'awaiting argocd' }, analysis: null };
  const v = rolloutView(input({ landedAt: new Date(NOW.getTime() - 120_000), signals }));
  expect(v.phase).toBe('Progressing');
  expect(v.gate).toMatchObject({
    remaining: 0,
    passed: false,
    detail: '60s passed; waiting for health: awaiting argocd',
  });
});

test('a running analysis holds an automatic gate', () => {
  const signals = { health: null, analysis: { verdict: 'running', detail: 'success-rate (step) Running' } };
  const v = rolloutView(input({ status: status({ step: 2 }), signals }));
  expect(v.gate).toMatchObject({ before: 'promote', kind: 'automatic', passed: false });
  expect(v.gate!.detail).toBe('analysis running: success-rate (step) Running');
});

test('two-commit clean-up is Draining, not Healthy; an aborted rollout says how to retry', () => {
  const draining = rolloutView(input({ status: status({ phase: 'Healthy', step: 0, draining: 2 }) }));
  expect(draining).toMatchObject({ phase: 'Draining', next: { command: 'rollgen advance web' } });
  const aborted = rolloutView(input({ status: status({ phase: 'Aborted', step: 0 }) }));
  expect(aborted).toMatchObject({ phase: 'Aborted', next: { command: 'rollgen retry web' }, traffic: { weight: 0 } });
});

test('a paused spec is Held whatever its phase, and a rollout with no state is NotDeployed with nulls', () => {
  const held = rolloutView(input({ plan: { ...PLAN, pausedBy: 'spec.paused' } }));
  expect(held).toMatchObject({ phase: 'Held', next: null });
  const fresh = rolloutView(input({ status: undefined }));
  expect(fresh).toMatchObject({
    phase: 'NotDeployed',
    step: null,
    traffic: null,
    revisions: { stable: null, canary: null },
    next: { command: 'rollgen advance web' },
  });
});

test('offline, a gate with analysis is not known to have passed and says how to read or run it', () => {
  const analysis = [{ kind: 'step' as const, id: 'step-2', templates: ['success-rate'], metrics: [] }];
  const plan = { ...PLAN, steps: [PLAN.steps[0], { ...PLAN.steps[1], analysis }] };
  const v = rolloutView(input({ plan, status: status({ step: 2 }) }));
  expect(v.gate).toMatchObject({ kind: 'automatic', passed: false, analysis: ['success-rate (step)'] });
  expect(v.gate!.detail).toContain('`rollgen status --pr` reads its verdict, `rollgen analyze web` runs it now');
  expect(v.phase).toBe('Progressing');
});

test('a TrafficRouting member shows the shared routing beside its own matches', () => {
  const shared = { name: 'full-link', providers: ['istio'], traffic: { ...stableTraffic(100), weight: 10 } };
  const v = rolloutView(input({ plan: { ...PLAN, trafficRouting: shared } }));
  expect(v.traffic).toMatchObject({ weight: 25, sharedRouting: { name: 'full-link', weight: 10, matches: null } });
});

test('blue-green names its strategy and its steps', () => {
  const steps = [
    { ...PLAN.steps[0], name: 'preview' },
    { ...PLAN.steps[1], name: 'switch' },
  ];
  const v = rolloutView(input({ plan: { ...PLAN, blueGreen: true, steps } }));
  expect(v).toMatchObject({ strategy: { blueGreen: true }, step: 1, stepName: 'preview' });
});
