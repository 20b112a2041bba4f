/**
 * An Argo experiment step in the PR flow (issue 28 item 6): its Deployments and Services land with
 * the step before it, its duration and required analysis gate that step, and the next commit (the
 * next step, or the abort when the analysis fails) removes them.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';
import { commitAll, git } from '../helpers/git-repo';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'argo-experiment', 'guestbook');
let same = true;
const asked: string[] = [];
let server: http.Server;
let w: FlowWorld;
beforeAll(async () => {
  server = http.createServer((req, res) => (asked.push(req.url ?? ''), res.end(JSON.stringify(same))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

/** The example's comparison, measured on a loopback server instead of Prometheus. */
const template = (port: number) => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: compare-latency
spec:
  args:
    - name: baseline
    - name: candidate
  metrics:
    - name: same-latency
      count: 1
      successCondition: result == true
      provider:
        web:
          url: http://127.0.0.1:${port}/{{args.baseline}}/{{args.candidate}}
`;

const outputFiles = () => fs.readdirSync(path.join(w.repo, 'deploy', 'guestbook'));
const experimentFiles = () => outputFiles().filter((f) => f.includes('-step-1-'));

/** guestbook adopted, a new image on main, step 1 (and its experiment) merged by a person; the step 2 PR open. */
async function atStepOne(): Promise<void> {
  w = new FlowWorld(['guestbook'], 'apps:\n  - source: apps/guestbook\n    output: deploy/guestbook\n');
  const app = path.join(w.repo, 'apps', 'guestbook');
  fs.rmSync(app, { recursive: true });
  fs.cpSync(EXAMPLE, app, { recursive: true });
  fs.writeFileSync(path.join(app, 'analysis-templates.yaml'), template((server.address() as AddressInfo).port));
  commitAll(w.repo, 'guestbook', w.now);
  await w.pr();
  w.merge(w.openPr('rollgen/guestbook/adopt').number);
  await w.pr();
  w.merge(w.openPr('rollgen/guestbook/select').number);
  const deployment = path.join(app, 'deployment.yaml');
  fs.writeFileSync(deployment, fs.readFileSync(deployment, 'utf8').replace('podinfo:6.7.0', 'podinfo:6.7.1'));
  commitAll(w.repo, 'guestbook 6.7.1', w.now);
  await w.pr();
  w.merge(w.openPr('rollgen/guestbook/step-1').number);
  await w.pr();
}

test('the experiment lands with step 1; step 2 merges once its analysis passed and its 10 minutes are over, removing it', async () => {
  same = true;
  await atStepOne();
  expect(experimentFiles().sort()).toEqual([
    'deployment-guestbook-step-1-baseline.yaml',
    'deployment-guestbook-step-1-candidate.yaml',
    'service-guestbook-step-1-baseline.yaml',
    'service-guestbook-step-1-candidate.yaml',
  ]);
  // {{templates.X.podTemplateHash}} in the args named the experiment's workloads.
  expect(asked).toContain('/guestbook-step-1-baseline/guestbook-step-1-candidate');
  const step2 = w.openPr('rollgen/guestbook/step-2');
  let r = await w.pr();
  expect(r.stdout).toContain('timed gate');
  expect(w.fake.pull(step2.number).merged).toBe(false);
  w.later(601);
  r = await w.pr();
  expect(w.fake.pull(step2.number).merged).toBe(true);
  expect(experimentFiles()).toEqual([]);
});

test("the experiment's analysis fails: rollgen aborts, and the abort removes the experiment with the canary", async () => {
  same = false;
  await atStepOne();
  // Step 1's commit carried the experiment; the run that measured the failure aborted at once.
  const landed = git(w.repo, ['log', '--format=', '--name-only', '--', 'deploy/guestbook']);
  expect(landed).toContain('deploy/guestbook/deployment-guestbook-step-1-candidate.yaml');
  const abort = w.fake.pulls.find((p) => p.branch === 'rollgen/guestbook/abort');
  expect(abort?.merged).toBe(true);
  expect(abort!.body).toContain('same-latency');
  // No step 2 was merged (nor left open) past the failed analysis.
  expect(w.fake.pulls.filter((p) => p.branch === 'rollgen/guestbook/step-2' && p.merged)).toEqual([]);
  expect(w.fake.open()).toEqual([]);
  expect(experimentFiles()).toEqual([]);
});
