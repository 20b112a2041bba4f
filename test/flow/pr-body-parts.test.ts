import { abortPath, serverUrlOf } from '../../src/flow/abort-path';
import { nextStep } from '../../src/flow/next-step';
import { templateChange } from '../../src/flow/template-change';
import { Gate, PlannedStep, stableTraffic } from '../../src/model/plan';
import type { LoadedApp } from '../../src/spec/loaded-app';
import type { AppTransition } from '../../src/state/app-state';

const step = (index: number, weight: number, gate: Gate, analysis?: string[]): PlannedStep => ({
  index,
  canaryReplicas: 1,
  stableReplicas: 4,
  traffic: { ...stableTraffic(100), weight },
  serviceSelection: 'split',
  gate,
  ...(analysis ? { analysis: [{ kind: 'step', id: 'a', templates: analysis, metrics: [] }] } : {}),
});

/** One rollout `web` with the given steps, live at `at` (the step this PR lands). */
function input(steps: PlannedStep[], at: number, health?: { statuses: string[]; checkRuns: string[] }) {
  const app = { name: 'web', rollouts: [{ spec: { name: 'web' }, plan: { steps } }] } as unknown as LoadedApp;
  const transition = {
    status: { rollouts: [{ name: 'web', phase: 'Progressing', step: at, steps: steps.length, stableRevision: 's' }] },
    actions: [{ rollout: 'web', action: 'step' }],
    states: [],
  } as unknown as AppTransition;
  return { app, transition, target: { kind: 'step' as const, step: at }, ...(health ? { health } : {}) };
}

test('what follows a step: its gate, in the words of each kind, with the next step and its traffic', () => {
  const steps = [
    step(1, 20, { kind: 'manual' }),
    step(2, 40, { kind: 'timed', seconds: 600 }),
    step(3, 60, { kind: 'automatic' }),
    step(4, 100, { kind: 'automatic' }),
  ];
  expect(nextStep(input(steps, 1)).text).toBe('step 2 (40%) opens after a person merges its PR.');
  expect(nextStep(input(steps, 2))).toEqual({
    text: 'step 3 (60%) opens after 600 s; rollgen merges it once its checks are green.',
    gate: { kind: 'timed', seconds: 600 },
    analyses: [],
    health: [],
  });
  expect(nextStep(input(steps, 3)).text).toBe(
    'step 4 (100%) follows at once; rollgen merges it once its checks are green.',
  );
  expect(nextStep(input(steps, 4)).text).toMatch(/^promotion follows at once/);
});

test('health gates and analyses are named as conditions of the next step', () => {
  const steps = [step(1, 20, { kind: 'timed', seconds: 300 }, ['success-rate']), step(2, 50, { kind: 'manual' })];
  const next = nextStep(input(steps, 1, { statuses: ['kustomization/web/*'], checkRuns: [] }));
  expect(next.text).toBe(
    'step 2 (50%) opens after 300 s and once the health gate (kustomization/web/*) on step 1 and analysis `success-rate` pass; rollgen merges it once its checks are green.',
  );
  expect(next.analyses).toEqual(['success-rate']);
  const manual = [step(1, 20, { kind: 'manual' }, ['success-rate']), step(2, 50, { kind: 'manual' })];
  expect(nextStep(input(manual, 1)).text).toBe(
    'step 2 (50%) opens after a person merges its PR; the PR shows whether analysis `success-rate` passes.',
  );
  const automatic = [step(1, 20, { kind: 'automatic' }), step(2, 50, { kind: 'manual' })];
  expect(nextStep(input(automatic, 1, { statuses: ['argocd/web'], checkRuns: ['e2e'] })).text).toBe(
    'step 2 (50%) follows once the health gate (argocd/web, e2e) on step 1 passes; rollgen merges it once its checks are green.',
  );
  expect(next.health).toEqual(['kustomization/web/*']);
});

test('the pod-template change: images per container (added, dropped, same) and other fields by path', () => {
  const c = (name: string, image: string, extra: Record<string, unknown> = {}) => ({ name, image, ...extra });
  const from = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [c('app', 'web:1'), c('proxy', 'envoy:1'), c('old', 'x:1')], nodeSelector: { a: 'b' } },
  };
  const to = {
    metadata: { labels: { app: 'web' }, annotations: { note: 'x' } },
    spec: {
      containers: [c('app', 'web:2', { env: [{ name: 'A', value: '1' }] }), c('proxy', 'envoy:1'), c('new', 'y:1')],
      initContainers: [c('init', 'busybox:1')],
      nodeSelector: { a: 'c' },
    },
  };
  expect(templateChange(from, to)).toEqual({
    images: [
      { container: 'init (init)', from: null, to: 'busybox:1', changed: true },
      { container: 'app', from: 'web:1', to: 'web:2', changed: true },
      { container: 'proxy', from: 'envoy:1', to: 'envoy:1', changed: false },
      { container: 'old', from: 'x:1', to: null, changed: true },
      { container: 'new', from: null, to: 'y:1', changed: true },
    ],
    fields: ['spec.containers[app].env', 'metadata.annotations', 'spec.nodeSelector'],
  });
});

test('the abort path: only on PRs that move a canary forward; the dispatch page on github.com or GHES', () => {
  const links = { serverUrl: 'https://github.com', repository: 'acme/deploy', workflow: 'deploy.yaml' };
  expect(abortPath('web', { kind: 'cleanup' }, links)).toBeNull();
  expect(abortPath('web', { kind: 'abort' }, links)).toBeNull();
  expect(abortPath('web', { kind: 'step', step: 2 }, links)).toEqual({
    host: 'GitHub',
    cli: 'rollgen abort web --pr --merge',
    workflowUrl: 'https://github.com/acme/deploy/actions/workflows/deploy.yaml',
    workflow: 'deploy.yaml',
    inputs: [
      { name: 'command', value: 'abort' },
      { name: 'app', value: 'web' },
      { name: 'merge', value: 'true' },
    ],
    gh: 'gh workflow run deploy.yaml -f command=abort -f app=web -f merge=true',
  });
  expect(serverUrlOf('https://api.github.com', undefined)).toBe('https://github.com');
  expect(serverUrlOf('https://ghe.acme.io/api/v3', undefined)).toBe('https://ghe.acme.io');
  expect(serverUrlOf('https://api.github.com', 'https://github.com/')).toBe('https://github.com');
  // Gitea and Forgejo: the workflow's runs page, whose "Run workflow" button dispatches it; no gh there.
  expect(
    abortPath('web', { kind: 'step', step: 2 }, { ...links, serverUrl: 'https://git.acme.io', forge: 'gitea' }),
  ).toEqual({
    host: 'Gitea',
    cli: 'rollgen abort web --pr --merge',
    workflowUrl: 'https://git.acme.io/acme/deploy/actions?workflow=deploy.yaml',
    workflow: 'deploy.yaml',
    inputs: [
      { name: 'command', value: 'abort' },
      { name: 'app', value: 'web' },
      { name: 'merge', value: 'true' },
    ],
  });
  expect(serverUrlOf('https://git.acme.io/api/v1', undefined)).toBe('https://git.acme.io');
});

test('a step whose canary took every pod (partition style, few replicas) is told as all traffic, wherever the PR names its share', () => {
  const all: PlannedStep = {
    ...step(2, 60, { kind: 'manual' }),
    canaryReplicas: 2,
    stableReplicas: 0,
    serviceSelection: 'shared',
  };
  const steps = [step(1, 20, { kind: 'manual' }), all];
  expect(nextStep(input(steps, 1)).text).toBe(
    'step 2 (all traffic: no stable pod) opens after a person merges its PR.',
  );
});
