import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { exampleApps, lineOf } from '../helpers/example-app';

/**
 * Workloads that would take a step's traffic with no pods, or split it by pod count whatever the
 * step says: refused (or, for an app scaled to zero, warned) at the field, never rendered silently.
 */
const app = exampleApps('rollgen-workload-rules-');
const example = app.example;

test('GIVEN a paused Deployment WHEN validated or rendered THEN refused at spec.paused, nothing rendered', async () => {
  const text = example('kruise-nginx/echoserver', 'deployment.yaml', (t) =>
    t.replace(/^spec:\n/m, 'spec:\n  paused: true\n'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `src/deployment.yaml:${lineOf(text, 'paused:')}:11: rollout rollouts-demo: Deployment "echoserver" has spec.paused: true, so its canary would start no pods while it takes traffic`,
  );
  const render = await runCli(['render', 'src', '--step', '1'], app.dir());
  expect(render).toMatchObject({ code: 2, stdout: '' });
});

test('GIVEN a Deployment scaled to zero WHEN validated THEN a warning at its replicas (the app serves nothing at any step)', async () => {
  const text = example('kruise-nginx/echoserver', 'deployment.yaml', (t) => t.replace(/replicas: \d+/, 'replicas: 0'));
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/deployment.yaml:${lineOf(text, 'replicas: 0')}:13: warning: rollout rollouts-demo: Deployment "echoserver" has replicas: 0`,
  );
});

test('GIVEN an Argo Rollout with replicas 0 WHEN validated THEN a warning at its spec.replicas', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) => t.replace(/replicas: \d+/, 'replicas: 0'));
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`src/rollout.yaml:${lineOf(text, 'replicas: 0')}:13: warning: replicas: 0: no pod`);
});

test('GIVEN an Argo canaryService equal to its stableService WHEN validated THEN refused at canaryService', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace(/canaryService: \S+/, 'canaryService: echoserver'),
  );
  expect(text).toMatch(/stableService: echoserver\b/);
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`src/rollout.yaml:${lineOf(text, 'canaryService:')}:`);
  expect(r.stderr).toContain('canaryService and stableService are both "echoserver"');
});

test('GIVEN a Deployment with its own error WHEN validated THEN that error alone: not also "not among the app\'s manifests"', async () => {
  const text = example('kruise-nginx/echoserver', 'deployment.yaml', (t) =>
    t.replace(/replicas: \d+/, 'replicas: "5"'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`src/deployment.yaml:${lineOf(text, 'replicas:')}:`);
  expect(r.stderr).not.toContain('is not among the app');
});

test('GIVEN a workloadRef naming no Deployment WHEN validated THEN refused at workloadRef.name', async () => {
  const text = example('kruise-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace(/name: echoserver\n/, 'name: echoservr\n'),
  );
  expect(text).toContain('echoservr');
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    new RegExp(
      `src/rollout\\.yaml:${lineOf(text, 'echoservr')}:\\d+: rollout rollouts-demo: Deployment "echoservr" is not among`,
    ),
  );
});

test.each([
  ['traefik', true],
  ['alb', true],
  ['nginx-internal', false],
  ['public', false],
])(
  'GIVEN an ingress-nginx rollout whose Ingress has class %s WHEN validated THEN warned at the class: %s',
  async (cls, warned) => {
    const text = example('kruise-nginx/echoserver', 'ingress.yaml', (t) =>
      t.replace('ingressClassName: nginx', `ingressClassName: ${cls}`),
    );
    const r = await runCli(['validate', 'src'], app.dir());
    expect(r.code).toBe(0);
    const warning = `src/ingress.yaml:${lineOf(text, 'ingressClassName')}:21: warning: Ingress "echoserver" has class "${cls}", which looks like another controller's`;
    if (warned) expect(r.stderr).toContain(warning);
    else expect(r.stderr).toBe('');
  },
);

test('GIVEN a stable Service whose selector has a typo WHEN validated THEN warned at the selector key (it would select none of the pods)', async () => {
  const text = example('argo-nginx/echoserver', 'service.yaml', (t) =>
    t.replace(/(selector:\n\s+app:) echoserver/, '$1 echoservr'),
  );
  expect(text).toContain('app: echoservr');
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/service.yaml:${lineOf(text, 'app: echoservr')}:10: warning: rollout echoserver: Service "echoserver" selects app: echoservr, but the pods of Deployment "echoserver" carry app: echoserver`,
  );
});

test('GIVEN a Kruise v1beta1 step with traffic 20.5% WHEN validated THEN refused at that traffic (Kruise refuses it; rounding would route a share nobody wrote)', async () => {
  const text = example('higress/echoserver', 'rollout.yaml', (t) => t.replace('traffic: 30%', 'traffic: 20.5%'));
  expect(text).toContain('traffic: 20.5%');
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    new RegExp(
      `src/rollout\\.yaml:${lineOf(text, '20.5%')}:\\d+: step 3: traffic 20\\.5% is not a whole percent; Kruise refuses it: write 20% or 21%`,
    ),
  );
});

test.each([
  ['kruise-nginx/echoserver', /apiVersion: apps\/v1(\n\s+kind: Deployment)/, 'apiVersion: apps/v2$1'],
  [
    'argo-nginx/echoserver',
    /workloadRef:\n(\s+)apiVersion: apps\/v1/,
    'workloadRef:\n$1apiVersion: foo.example.com/v9',
  ],
])(
  'GIVEN %s with a workloadRef.apiVersion that is not apps/v1 WHEN validated THEN refused at it',
  async (name, from, to) => {
    const text = example(name, 'rollout.yaml', (t) => t.replace(from, to));
    const bad = /apps\/v2|foo\.example\.com\/v9/.exec(text)![0];
    const r = await runCli(['validate', 'src'], app.dir());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `src/rollout\\.yaml:${lineOf(text, bad)}:\\d+: workloadRef\\.apiVersion "${bad.replace(/[./]/g, '\\$&')}" names no Deployment API`,
      ),
    );
  },
);

test('GIVEN a selector key the pod metadata sets, mistyped WHEN validated THEN one error for it (the metadata rule), not also the warning', async () => {
  const text = example('argo-nginx/echoserver', 'service.yaml', (t) =>
    t.replace(/(selector:\n(\s+))app: echoserver/, '$1app: echoserver\n$2role: stabel'),
  );
  fs.writeFileSync(
    path.join(app.dir(), 'src', 'rollout.yaml'),
    fs
      .readFileSync(path.join(app.dir(), 'src', 'rollout.yaml'), 'utf8')
      .replace(/(\n(\s+)stableService: echoserver\n)/, '$1$2stableMetadata:\n$2  labels:\n$2    role: stable\n'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  const about = r.stderr.split('\n').filter((l) => l.includes(`src/service.yaml:${lineOf(text, 'role: stabel')}:`));
  expect(about).toHaveLength(1);
  expect(about[0]).not.toContain('warning');
});

test('GIVEN a Deployment with a duplicate replicas key WHEN validated THEN the YAML error alone: not also "not among the app\'s manifests"', async () => {
  const text = example('kruise-nginx/echoserver', 'deployment.yaml', (t) =>
    t.replace(/^( {2}replicas: \d+\n)/m, '$1  replicas: 3\n'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    `src/deployment.yaml:${lineOf(text, 'replicas: 3')}:3: invalid YAML: Map keys must be unique\n`,
  );
});

test('GIVEN the Deployment in another namespace than the rollout WHEN validated THEN refused at workloadRef.name, naming that namespace', async () => {
  example('argo-nginx/echoserver', 'deployment.yaml', (t) =>
    t.replace(/^ {2}name: echoserver$/m, '  name: echoserver\n  namespace: shop'),
  );
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `rollout echoserver: Deployment "echoserver" is not among the app's manifests; the app has one in namespace shop: give the rollout the same metadata.namespace`,
  );
});
