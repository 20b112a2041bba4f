/**
 * verify.aws through `rollgen pr` runs on the fake GitHub, against a loopback ELBv2 API (the AWS
 * SDK's query protocol through its endpoint override, static test keys) and a loopback Kubernetes
 * API serving EndpointSlices: the seed's ALB canary example holds each step until the simulated ALB
 * forwards with the committed weights, and holds each scale-down until the serving target group
 * holds every ready pod IP; AWS throttling and errors wait, never pass.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { FlowRun, FlowWorld } from '../helpers/flow-world';
import { FakeElbv2 } from '../helpers/fake-elbv2';
import { FakeKubeApi } from '../helpers/fake-kube-api';
import { commitAll, makeRepo } from '../helpers/git-repo';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const VERIFY = 'verify:\n  aws: {weights: true, targetGroupIPs: true, region: eu-west-1, kubeconfig: kubeconfig}\n';
const SECRET = 'test-secret-key-never-printed';

// Whole rollouts, tens of `rollgen pr` runs each: on a loaded machine they outlast the suite's 60 s.
jest.setTimeout(240_000);

let elb: FakeElbv2;
let kube: FakeKubeApi;
let w: FlowWorld;
/** Whether the fake controller copies each committed action onto the ALB before a run. */
let controllerUp = true;
/** The controller applies what is committed only after a run waited for it: every merge decision first sees the old ALB. */
let controllerLags = false;
/** Every run's log of the test. */
let logs: string[] = [];
// One ELBv2 and one Kubernetes API for the file: the repositories' kubeconfig and endpoint stay valid in copies.
beforeAll(async () => {
  elb = await FakeElbv2.start();
  kube = await FakeKubeApi.start();
});
afterAll(async () => {
  await elb.close();
  await kube.close();
  for (const x of reached.values()) fs.rmSync(x.repo, { recursive: true, force: true });
});
beforeEach(() => {
  elb.reset();
  kube.reset();
  controllerUp = true;
  controllerLags = false;
  logs = [];
  healthy = undefined;
});
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

/** An example copied in as app `web` (output deploy/web), verification on, its ALB and cluster faked. */
function world(example: string, extra: Record<string, string> = {}, more = ''): FlowWorld {
  const now = new Date('2026-03-01T09:00:00Z');
  const repo = makeRepo([], `apps:\n  - source: apps/web\n    output: deploy/web\n${VERIFY}${more}`, now);
  fs.cpSync(path.join(EXAMPLES, example, 'web'), path.join(repo, 'apps', 'web'), { recursive: true });
  for (const [file, text] of Object.entries(extra)) fs.writeFileSync(path.join(repo, 'apps', 'web', file), text);
  kube.writeKubeconfig(repo);
  commitAll(repo, 'web', now);
  const x = new FlowWorld([], '', repo);
  x.env = {
    ...x.env,
    AWS_ACCESS_KEY_ID: 'AKIDTESTKEY',
    AWS_SECRET_ACCESS_KEY: SECRET,
    AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2: elb.url,
  };
  return x;
}

/** The seed's ALB canary example (namespace shop, Ingress web) and the load balancer its controller made. */
function canaryWorld(more = ''): FlowWorld {
  elb.stack = 'shop/web';
  for (const svc of ['web', 'web-canary']) elb.addGroup('shop', 'web', svc, '80');
  elb.addGroup('shop', 'web', 'health', '8081');
  setPods('shop/web', ['10.0.1.1', '10.0.1.2']);
  setPods('shop/web-canary', ['10.0.2.1']);
  return world('aws-alb', {}, more);
}

/** The Service's ready pods, and the controller registers them in its target group. */
function setPods(service: string, ips: string[], registered = true): void {
  kube.endpoints.set(service, { ready: ips, notReady: ['10.9.9.9'] });
  const name = service.split('/')[1];
  if (registered && elb.group(name)) elb.group(name).targets = ips.map((ip) => `${ip}:8080`);
}

/** The weights of the committed forward action `actions.web`, by Service. */
function committedWeights(): Record<string, number> | undefined {
  const dir = path.join(w.repo, 'deploy', 'web');
  if (!fs.existsSync(dir)) return undefined;
  for (const f of fs.readdirSync(dir))
    for (const d of parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8'))) {
      const o = d.toJS();
      const a = o?.kind === 'Ingress' ? o.metadata.annotations?.['alb.ingress.kubernetes.io/actions.web'] : undefined;
      if (a)
        return Object.fromEntries(
          JSON.parse(a).ForwardConfig.TargetGroups.map((g: { ServiceName: string; Weight: number }) => [
            g.ServiceName,
            g.Weight,
          ]),
        );
    }
  return undefined;
}

/** With a health gate: the GitOps engine's status on the base's head, each run (undefined: none posted). */
let healthy: 'success' | 'failure' | undefined;
const reported = new Set<string>();
const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: w.repo, encoding: 'utf8' }).trim();

const bodies: string[] = [];
/** One scheduled run: the controller (when up) applies what is committed, a person merges manual PRs, time passes. */
async function tick(): Promise<FlowRun> {
  const weights = committedWeights();
  if (controllerUp && !controllerLags && weights) elb.setForward('1', weights);
  // The engine reports once per commit and state (a new report would restart a timed gate's count).
  const report = `${head()} ${healthy}`;
  if (healthy && !reported.has(report)) {
    reported.add(report);
    w.fake.postStatus(head(), 'deploy/web', healthy);
  }
  const r = await w.pr();
  logs.push(r.stdout);
  if (controllerLags && weights && r.stdout.includes('waiting for the ALB weights')) elb.setForward('1', weights);
  expect(r.code).toBe(0);
  expect(r.stdout + r.stderr).not.toContain(SECRET);
  for (const p of w.fake.open()) bodies.push(p.body);
  const manual = w.fake.open().find((p) => p.labels.includes('rollgen:manual'));
  if (manual) w.merge(manual.number);
  w.later(400);
  return r;
}

/** Copies of the canary world where a branch's PR had just opened (the same runs need not replay per test). */
const reached = new Map<string, FlowWorld>();

/** Runs until the app's output is at its first revision, a new image is pushed, then until `branch` has a PR (a manual one merged by a person). */
async function runTo(branch: string): Promise<void> {
  const key = (b: string) => `${elb.stack} ${healthy ? 'health ' : ''}${b}`;
  const kept = reached.get(key(branch));
  if (kept) {
    fs.rmSync(w.repo, { recursive: true, force: true });
    w = kept.copy();
    return;
  }
  for (let i = 0; i < 25; i++) {
    // Every branch met on the way is kept: a later test starts from there.
    for (const p of w.fake.pulls) if (!reached.has(key(p.branch))) reached.set(key(p.branch), w.copy());
    if (w.fake.pulls.some((p) => p.branch === branch)) return;
    const r = await tick();
    if (r.stdout.includes('web: up to date')) bump();
  }
  throw new Error(`no PR on ${branch}; runs: ${bodies.length}`);
}

/** A new image of the app pushed to main: a rollout starts. */
function bump(): void {
  const f = path.join(w.repo, 'apps', 'web', 'deployment.yaml');
  if (!fs.readFileSync(f, 'utf8').includes('agnhost:2.53')) return;
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('agnhost:2.53', 'agnhost:2.54'));
  commitAll(w.repo, 'web 2.54', w.now);
}

const merged = (branch: string) => w.fake.pulls.filter((p) => p.branch === branch).some((p) => p.merged);

test('the ALB canary example with both verifications: every step merges once the ALB shows its weights; the clean-up once the target group holds the pods', async () => {
  w = canaryWorld();
  controllerLags = true;
  await runTo('rollgen/web/cleanup');
  for (let i = 0; i < 6 && !merged('rollgen/web/remove'); i++) await tick();
  expect(merged('rollgen/web/remove')).toBe(true);
  // Each weight step was held while the ALB still showed the one before it (at first: no such rule yet).
  const said = logs.join('');
  expect(said).toContain(
    'waiting for the ALB weights: Ingress shop/web: ALB k8s-shop-web-0123456789: no listener rule forwards to web-canary and web (committed web-canary 10, web 90)',
  );
  for (const [shown, committed] of [
    ['web-canary 10, web 90', 'web-canary 50, web 50'],
    ['web-canary 50, web 50', 'web-canary 100, web 0'],
  ])
    expect(said).toContain(`HTTPS:443 rule 1 shows ${shown}; committed ${committed}`);
  for (const s of ['step-3', 'step-4', 'step-5', 'promote', 'cleanup']) expect(merged(`rollgen/web/${s}`)).toBe(true);
  const step4 = w.fake.pulls.find((p) => p.branch === 'rollgen/web/step-4')!.body;
  expect(step4).toContain(
    '- ALB weights: **verified**: ALB k8s-shop-web-0123456789 forwards as committed (HTTP:80 rule 1: web-canary 10, web 90; HTTPS:443 rule 1: web-canary 10, web 90)',
  );
  expect(w.fake.pulls.find((p) => p.branch === 'rollgen/web/remove')!.body).toContain(
    '- Target group IPs: **verified**: target group shop/web-web:80 holds all 2 ready endpoints of Service web',
  );
  expect(
    fs.readdirSync(path.join(w.repo, 'deploy', 'web')).some((f) => f.includes('canary') && f.includes('deployment')),
  ).toBe(false);
  // Read with the static test keys, the EndpointSlices with the kubeconfig's token, selected by Service.
  expect([...elb.signedBy]).toEqual(['AKIDTESTKEY']);
  expect(new Set(elb.calls)).toEqual(
    new Set([
      'DescribeLoadBalancers',
      'DescribeTags',
      'DescribeTargetGroups',
      'DescribeListeners',
      'DescribeRules',
      'DescribeTargetHealth',
    ]),
  );
  expect(kube.requests).toContain(
    'GET /apis/discovery.k8s.io/v1/namespaces/shop/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb',
  );
});

test('a lagging controller (the ALB still at the old weights): the next step waits, saying ALB against committed, then merges once the ALB changes', async () => {
  w = canaryWorld();
  await runTo('rollgen/web/step-3');
  // Step 2 (10%) landed; the controller is down and the ALB still forwards as before it.
  controllerUp = false;
  elb.setForward('1', { 'web-canary': 0, web: 100 });
  const wait =
    'waiting for the ALB weights: Ingress shop/web: ALB k8s-shop-web-0123456789 HTTP:80 rule 1 shows web-canary 0, web 100; committed web-canary 10, web 90';
  for (let i = 0; i < 2; i++) {
    const r = await tick();
    expect(r.stdout).toContain(wait);
  }
  expect(merged('rollgen/web/step-3')).toBe(false);
  expect(w.openPr('rollgen/web/step-3').body).toContain(
    '- ALB weights: **waiting**: Ingress shop/web: ALB k8s-shop-web-0123456789 HTTP:80 rule 1 shows web-canary 0, web 100; committed web-canary 10, web 90',
  );
  // `rollgen status --pr` reads the same verification, in text and as JSON.
  const text = await w.run(['status', 'web', '--pr']);
  expect(text.stdout).toMatch(
    /ALB weights: +waiting: Ingress shop\/web: ALB k8s-shop-web-0123456789 HTTP:80 rule 1 shows web-canary 0, web 100; committed web-canary 10, web 90/,
  );
  const json = JSON.parse((await w.run(['status', 'web', '--pr', '-o', 'json'])).stdout);
  expect(json.rollouts[0].signals.verify.weights.state).toBe('waiting');
  controllerUp = true;
  elb.setForward('1', committedWeights()!);
  const after = JSON.parse((await w.run(['status', 'web', '--pr', '-o', 'json'])).stdout).rollouts[0].signals.verify;
  expect(after.weights).toEqual({
    state: 'verified',
    detail:
      'ALB k8s-shop-web-0123456789 forwards as committed (HTTP:80 rule 1: web-canary 10, web 90; HTTPS:443 rule 1: web-canary 10, web 90)',
  });
  expect(after.targetGroupIPs).toEqual({
    state: 'verified',
    detail:
      'target group shop/web-web-canary:80 holds all 1 ready endpoints of Service web-canary; target group shop/web-web:80 holds all 2 ready endpoints of Service web',
  });
  const r = await tick();
  expect(r.stdout).toContain('web: merge #');
  expect(merged('rollgen/web/step-3')).toBe(true);
});

test('no load balancer tagged for the Ingress yet: waits and says which tag it looked for', async () => {
  w = canaryWorld();
  await runTo('rollgen/web/step-3');
  elb.stack = 'shop/other';
  const r = await tick();
  expect(r.stdout).toContain(
    'waiting for the ALB weights: Ingress shop/web: no load balancer in eu-west-1 carries the tag ingress.k8s.aws/stack=shop/web (yet)',
  );
  expect(merged('rollgen/web/step-3')).toBe(false);
});

test('AWS throttling (Throttling, 400) and server errors (500) wait, never pass', async () => {
  w = canaryWorld();
  await runTo('rollgen/web/step-3');
  elb.failure = { status: 400, code: 'Throttling' };
  let r = await tick();
  expect(r.stdout).toContain(
    'waiting for the ALB weights: Ingress shop/web: AWS Elastic Load Balancing answered Throttling (HTTP 400): Throttling (fake)',
  );
  elb.failure = { status: 500, code: 'InternalFailure' };
  r = await tick();
  expect(r.stdout).toContain(
    'waiting for the ALB weights: Ingress shop/web: AWS Elastic Load Balancing answered InternalFailure (HTTP 500)',
  );
  expect(merged('rollgen/web/step-3')).toBe(false);
  elb.failure = undefined;
  await tick();
  expect(merged('rollgen/web/step-3')).toBe(true);
});

test('the target group lacks the new pod IPs: no scale-down commit (its PR is not even opened) until it holds them', async () => {
  w = canaryWorld();
  await runTo('rollgen/web/cleanup');
  await tick(); // merges the clean-up: traffic back on Service web, now the new pods
  setPods('shop/web', ['10.0.3.1', '10.0.3.2'], false);
  elb.group('web').targets = ['10.0.1.1:8080', '10.0.1.2:8080', '10.0.3.1:8080'];
  const wait =
    'waiting for the target group IPs before scaling pods down: target group shop/web-web:80 lacks 1 of 2 ready endpoints of Service web: 10.0.3.2:8080';
  let r = await tick();
  expect(r.stdout).toContain(wait);
  expect(w.fake.pulls.some((p) => p.branch === 'rollgen/web/remove')).toBe(false);
  elb.failure = { status: 400, code: 'Throttling' };
  r = await tick();
  expect(r.stdout).toContain(
    'waiting for the target group IPs before scaling pods down: Ingress shop/web: AWS Elastic Load Balancing answered Throttling',
  );
  expect(w.fake.pulls.some((p) => p.branch === 'rollgen/web/remove')).toBe(false);
  elb.failure = undefined;
  elb.group('web').targets.push('10.0.3.2:8080');
  await tick();
  await tick();
  expect(merged('rollgen/web/remove')).toBe(true);
});

test('the Kubernetes API refusing the token or unreachable: the scale-down waits', async () => {
  w = canaryWorld();
  await runTo('rollgen/web/cleanup');
  await tick();
  fs.writeFileSync(
    path.join(w.repo, 'kubeconfig'),
    fs.readFileSync(path.join(w.repo, 'kubeconfig'), 'utf8').replace(kube.token, 'wrong'),
  );
  const r = await tick();
  expect(r.stdout).toContain(
    'waiting for the target group IPs before scaling pods down: Ingress shop/web: the Kubernetes API answered 401 for the EndpointSlices of shop/web',
  );
  expect(r.stdout).not.toContain('wrong');
  expect(w.fake.pulls.some((p) => p.branch === 'rollgen/web/remove')).toBe(false);
});

const ALB_INGRESS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  annotations:
    alb.ingress.kubernetes.io/target-type: ip
spec:
  ingressClassName: alb
  rules:
    - http:
        paths:
          - path: /
            pathType: Prefix
            backend: {service: {name: web, port: {number: 80}}}
`;

/** The seed's Argo blue-green example behind an ALB Ingress (IP targets) on its active Service. */
function blueGreenWorld(): FlowWorld {
  elb.stack = 'default/web';
  elb.addGroup('default', 'web', 'web', '80');
  setPods('default/web', ['10.0.1.1', '10.0.1.2', '10.0.1.3']);
  return world('argo-blue-green', { 'ingress.yaml': ALB_INGRESS });
}

test('the blue-green example behind an ALB: the promotion, which ends the old pods, waits until the active target group holds the new ones', async () => {
  w = blueGreenWorld();
  await runTo('rollgen/web/step-2'); // a person merged the switch: Service web now selects the new pods
  setPods('default/web', ['10.0.4.1', '10.0.4.2', '10.0.4.3'], false);
  elb.group('web').targets = ['10.0.1.1:8080', '10.0.1.2:8080', '10.0.1.3:8080', '10.0.4.1:8080'];
  const r = await tick();
  expect(r.stdout).toContain(
    'web: waiting for the target group IPs before scaling pods down: target group default/web-web:80 lacks 2 of 3 ready endpoints of Service web: 10.0.4.2:8080, 10.0.4.3:8080',
  );
  expect(w.fake.pulls.some((p) => p.branch === 'rollgen/web/promote')).toBe(false);
  // AWS's mitigation for pods ended during a rolling update is said at the Ingress.
  expect(r.stderr).toContain(
    "apps/web/ingress.yaml:4:3: warning: ALB Ingress default/web: no Namespace default in the app's source is labelled elbv2.k8s.aws/pod-readiness-gate-inject: enabled",
  );
  setPods('default/web', ['10.0.4.1', '10.0.4.2', '10.0.4.3']);
  for (let i = 0; i < 6 && !merged('rollgen/web/cleanup'); i++) await tick();
  expect(merged('rollgen/web/promote')).toBe(true);
  expect(merged('rollgen/web/cleanup')).toBe(true);
  expect(w.fake.pulls.find((p) => p.branch === 'rollgen/web/promote')!.body).toContain(
    '- Target group IPs: **verified**: target group default/web-web:80 holds all 3 ready endpoints of Service web',
  );
});

test('after an abort, the removal of the canary waits for the stable target group to hold its pods', async () => {
  healthy = 'success';
  w = canaryWorld("health: {statuses: ['deploy/{name}']}\n");
  await runTo('rollgen/web/step-3');
  healthy = 'failure';
  await tick(); // the step failed: the abort PR (routes back to stable) opens and merges
  expect(merged('rollgen/web/abort')).toBe(true);
  healthy = undefined;
  setPods('shop/web', ['10.0.1.1', '10.0.1.2', '10.0.1.5'], false);
  let r = await tick();
  for (let i = 0; i < 3 && !r.stdout.includes('target group IPs'); i++) r = await tick();
  expect(r.stdout).toContain(
    'web: waiting for the target group IPs before scaling pods down: target group shop/web-web:80 lacks 1 of 3 ready endpoints of Service web: 10.0.1.5:8080',
  );
  expect(w.fake.pulls.filter((p) => p.branch === 'rollgen/web/remove')).toEqual([]);
  elb.group('web').targets.push('10.0.1.5:8080');
  healthy = 'success'; // the abort is healthy
  for (let i = 0; i < 4 && !merged('rollgen/web/remove'); i++) await tick();
  expect(merged('rollgen/web/remove')).toBe(true);
});
