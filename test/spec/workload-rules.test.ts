import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

/**
 * Workloads that would take a step's traffic with no pods, or split it by pod count whatever the
 * step says: refused (or, for an app scaled to zero, warned) at the field, never rendered silently.
 */
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-workload-rules-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A copy of an example with `file` edited. */
function example(name: string, file: string, edit: (text: string) => string): string {
  const src = path.join(dir, 'src');
  fs.cpSync(path.join(EXAMPLES, name), src, { recursive: true });
  const full = path.join(src, file);
  const text = edit(fs.readFileSync(full, 'utf8'));
  fs.writeFileSync(full, text);
  return text;
}
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

test('GIVEN a paused Deployment WHEN validated or rendered THEN refused at spec.paused, nothing rendered', async () => {
  const text = example('kruise-nginx/echoserver', 'deployment.yaml', (t) =>
    t.replace(/^spec:\n/m, 'spec:\n  paused: true\n'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `src/deployment.yaml:${lineOf(text, 'paused:')}:11: rollout rollouts-demo: Deployment "echoserver" has spec.paused: true, so its canary would start no pods while it takes traffic`,
  );
  const render = await runCli(['render', 'src', '--step', '1'], dir);
  expect(render).toMatchObject({ code: 2, stdout: '' });
});

test('GIVEN a Deployment scaled to zero WHEN validated THEN a warning at its replicas (the app serves nothing at any step)', async () => {
  const text = example('kruise-nginx/echoserver', 'deployment.yaml', (t) => t.replace(/replicas: \d+/, 'replicas: 0'));
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/deployment.yaml:${lineOf(text, 'replicas: 0')}:13: warning: rollout rollouts-demo: Deployment "echoserver" has replicas: 0`,
  );
});

test('GIVEN an Argo Rollout with replicas 0 WHEN validated THEN a warning at its spec.replicas', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) => t.replace(/replicas: \d+/, 'replicas: 0'));
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`src/rollout.yaml:${lineOf(text, 'replicas: 0')}:13: warning: replicas: 0: no pod`);
});

test('GIVEN an Argo canaryService equal to its stableService WHEN validated THEN refused at canaryService', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace(/canaryService: \S+/, 'canaryService: echoserver'),
  );
  expect(text).toMatch(/stableService: echoserver\b/);
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`src/rollout.yaml:${lineOf(text, 'canaryService:')}:`);
  expect(r.stderr).toContain('canaryService and stableService are both "echoserver"');
});

test('GIVEN a Deployment with its own error WHEN validated THEN that error alone: not also "not among the app\'s manifests"', async () => {
  const text = example('kruise-nginx/echoserver', 'deployment.yaml', (t) =>
    t.replace(/replicas: \d+/, 'replicas: "5"'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`src/deployment.yaml:${lineOf(text, 'replicas:')}:`);
  expect(r.stderr).not.toContain('is not among the app');
});

test('GIVEN a workloadRef naming no Deployment WHEN validated THEN refused at workloadRef.name', async () => {
  const text = example('kruise-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace(/name: echoserver\n/, 'name: echoservr\n'),
  );
  expect(text).toContain('echoservr');
  const r = await runCli(['validate', 'src'], dir);
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
    const r = await runCli(['validate', 'src'], dir);
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
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/service.yaml:${lineOf(text, 'app: echoservr')}:10: warning: rollout echoserver: Service "echoserver" selects app: echoservr, but the pods of Deployment "echoserver" carry app: echoserver`,
  );
});

test('GIVEN a Kruise v1beta1 step with traffic 20.5% WHEN validated THEN refused at that traffic (Kruise refuses it; rounding would route a share nobody wrote)', async () => {
  const text = example('higress/echoserver', 'rollout.yaml', (t) => t.replace('traffic: 30%', 'traffic: 20.5%'));
  expect(text).toContain('traffic: 20.5%');
  const r = await runCli(['validate', 'src'], dir);
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
    const r = await runCli(['validate', 'src'], dir);
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
    path.join(dir, 'src', 'rollout.yaml'),
    fs
      .readFileSync(path.join(dir, 'src', 'rollout.yaml'), 'utf8')
      .replace(/(\n(\s+)stableService: echoserver\n)/, '$1$2stableMetadata:\n$2  labels:\n$2    role: stable\n'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  const about = r.stderr.split('\n').filter((l) => l.includes(`src/service.yaml:${lineOf(text, 'role: stabel')}:`));
  expect(about).toHaveLength(1);
  expect(about[0]).not.toContain('warning');
});

test('GIVEN an Argo setCanaryScale of no pods and a later setWeight WHEN validated THEN warned at setCanaryScale: 1 pod runs, not 0', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) => t.replace('replicas: 2\n', 'replicas: 0\n'));
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, 'replicas: 0')}:13: warning: setCanaryScale gives the canary no pods while a step sends it traffic (setWeight 5)`,
  );
  // Said once, and the plan runs the one pod it says.
  expect(r.stderr.match(/setCanaryScale gives/g)).toHaveLength(1);
  const plan = await runCli(['plan', 'src'], dir);
  expect(plan.stdout).toMatch(/^2 +1 +4 +5\/1000 /m);
});

test('GIVEN an Argo setCanaryScale of no pods while the canary takes no traffic WHEN validated THEN no warning', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('- setWeight: 5\n', '- setCanaryScale:\n            replicas: 0\n'),
  );
  expect(text).toContain('replicas: 0');
  const r = await runCli(['validate', 'src'], dir);
  expect(r.stderr).not.toContain('setCanaryScale gives');
});

test('GIVEN a Deployment with a duplicate replicas key WHEN validated THEN the YAML error alone: not also "not among the app\'s manifests"', async () => {
  const text = example('kruise-nginx/echoserver', 'deployment.yaml', (t) =>
    t.replace(/^( {2}replicas: \d+\n)/m, '$1  replicas: 3\n'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    `src/deployment.yaml:${lineOf(text, 'replicas: 3')}:3: invalid YAML: Map keys must be unique\n`,
  );
});

test('GIVEN partition style whose canary takes every pod at a routed step WHEN planned THEN the plan says the new version serves all traffic, warned at the step; simulate agrees', async () => {
  const text = example('kruise-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('rolling-style: canary', 'rolling-style: partition'),
  );
  const deployment = path.join(dir, 'src', 'deployment.yaml');
  fs.writeFileSync(deployment, fs.readFileSync(deployment, 'utf8').replace(/replicas: \d+/, 'replicas: 2'));
  const plan = await runCli(['plan', 'src'], dir);
  expect(plan.code).toBe(0);
  // 20% of 2 is one pod of each; 60% of 2 is both pods, and no stable pod is left.
  expect(plan.stdout).toMatch(/^1 +1 +1 +20% /m);
  expect(plan.stdout).toMatch(/^3 +2 +0 +all \(no stable pod\) /m);
  expect(plan.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, '- weight: 60')}:11: warning: rollout rollouts-demo: step 3 routes 60% to the canary, but its 2 canary pods are all 2 replicas (partition style): with no stable pod the stable Service selects the canary pods too, so the new version serves all traffic. Add replicas or give the step fewer canary pods\n`,
  );
  const sim = await runCli(['simulate', 'src', '--step', '3'], dir);
  const shares = [...sim.stdout.matchAll(/^ +([\d.]+)% +service \S+ -> (\S+)$/gm)].map((m) => [m[2], Number(m[1])]);
  expect(shares.length).toBeGreaterThan(0);
  expect(shares.every(([pods]) => pods === 'echoserver-canary')).toBe(true);
});

test("GIVEN an Argo Rollout with a workloadRef and no spec.replicas WHEN validated THEN warned: Argo runs 1 replica, not the Deployment's", async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) => t.replace(/^ {2}replicas: \d+\n/m, ''));
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, '    name: echoserver')}:11: warning: rollout echoserver: the Rollout has no spec.replicas, so Argo runs its default of 1 replica, not Deployment "echoserver"'s 5; rollgen renders 1. Set spec.replicas: 5 on the Rollout to keep them`,
  );
  const plan = await runCli(['plan', 'src'], dir);
  expect(plan.stdout).toContain('1 replica,');
});

test('GIVEN a step with more traffic on fewer canary pods than the step before WHEN planned THEN warned at that step', async () => {
  const text = example('kruise-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('- weight: 60\n', '- weight: 60\n          replicas: 1\n'),
  );
  const r = await runCli(['plan', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^3 +1 +5 +60% /m);
  expect(r.stderr).toBe(
    `src/rollout.yaml:${lineOf(text, '- weight: 60')}:11: warning: rollout rollouts-demo: step 3 sends the canary 60% on 1 pod, fewer than step 2's 2 at 40%: each canary pod takes a larger share at once. Keep the canary's replicas growing with its traffic\n`,
  );
});

test('GIVEN a header route missing from managedRoutes WHEN validated THEN refused once, at the step that sets it (not at every step after)', async () => {
  const text = example('apisix/web', 'rollout.yaml', (t) =>
    t.replace('          - name: beta-users\n', '          - name: other\n'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  const told = r.stderr.split('\n').filter((l) => l.includes('must be listed in trafficRouting.managedRoutes'));
  expect(told).toEqual([
    `src/rollout.yaml:${lineOf(text, '- setHeaderRoute:')}:11: rollout web: route "beta-users" must be listed in trafficRouting.managedRoutes`,
  ]);
});

test('GIVEN a mistyped trafficRoutingRef WHEN validated THEN refused at each reference, naming the TrafficRouting meant', async () => {
  const text = example('kruise-istio/full-link', 'rollouts.yaml', (t) =>
    t.replaceAll('trafficRoutingRef: full-link', 'trafficRoutingRef: full-lnk'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  const lines = text.split('\n').flatMap((l, i) => (l.includes('full-lnk') ? [i + 1] : []));
  expect(lines).toHaveLength(2);
  for (const [line, rollout] of lines.map((l, i) => [l, ['mocka', 'mockb'][i]]))
    expect(r.stderr).toContain(
      `src/rollouts.yaml:${line}:26: rollout ${rollout} references TrafficRouting "full-lnk", which is not in app src; did you mean "full-link"?`,
    );
});

test('GIVEN the Deployment in another namespace than the rollout WHEN validated THEN refused at workloadRef.name, naming that namespace', async () => {
  example('argo-nginx/echoserver', 'deployment.yaml', (t) =>
    t.replace(/^ {2}name: echoserver$/m, '  name: echoserver\n  namespace: shop'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `rollout echoserver: Deployment "echoserver" is not among the app's manifests; the app has one in namespace shop: give the rollout the same metadata.namespace`,
  );
});

test('GIVEN an Argo nginx additionalIngressAnnotations key rollgen sets per step WHEN validated THEN warned at that key, not at the nginx block', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('canary-by-header: X-Canary', 'canary-weight: "90"'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, 'canary-weight: "90"')}:28: warning: annotation nginx.ingress.kubernetes.io/canary-weight is set per step by rollgen`,
  );
});

test('GIVEN a customNetworkRefs kind spelled almost like the object the app has WHEN validated THEN that one error, naming the kind meant (no RouteTemplate cascade)', async () => {
  example('kruise-istio/full-link', 'rollouts.yaml', (t) =>
    t.replace('kind: VirtualService, name: mockb}', 'kind: VirtualServce, name: mockb}'),
  );
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^src\/rollouts\.yaml:\d+:\d+: customNetworkRefs: VirtualServce "mockb" not found in the app's manifests; did you mean kind VirtualService\? \(the app has VirtualService "mockb"\)\n$/,
  );
});
