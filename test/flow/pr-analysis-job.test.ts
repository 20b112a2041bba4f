/**
 * A job metric in the PR flow (issue 28 item 5): its Job is committed with the step its analysis
 * gates and gone from the next; the GitOps engine's health report on that commit is its result, so a
 * failed Job aborts the rollout (onFailure) and a succeeded one lets the step move on.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';
import { commitAll, git } from '../helpers/git-repo';

const TEMPLATE = `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: smoke
spec:
  args:
    - name: host
  metrics:
    - name: smoke
      provider:
        job:
          spec:
            backoffLimit: 0
            template:
              spec:
                containers:
                  - name: smoke
                    image: busybox:1.36
                    command: [wget, -q, 'http://{{args.host}}/']
                restartPolicy: Never
`;

const APP = `apps:
  - source: apps/echo
    output: deploy/echo
    gates: {unpaused: automatic}
    analysis:
      steps:
        - step: 2
          templates: [{templateName: smoke}]
          args: [{name: host, value: echo-canary.default.svc.cluster.local}]
`;
const ONE_APP = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n';
const HEALTH = "health:\n  statuses: ['continuous-delivery/{name}']\n";
const ARGO_CD = 'continuous-delivery/echo';

let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

/** echo at step k with the next step's PR open; then the job metric and Argo CD's health gate arrive on main. */
async function echoAt(k: number): Promise<void> {
  w = await FlowWorld.echoAtStep(ONE_APP, k);
  fs.writeFileSync(path.join(w.repo, 'apps', 'echo', 'analysis.yaml'), TEMPLATE);
  fs.writeFileSync(path.join(w.repo, 'rollgen.yaml'), APP + HEALTH);
  commitAll(w.repo, 'job metric, health gate', w.now);
  await w.pr();
}

/** The Job files of the app's output on main, and their text. */
const jobs = () =>
  fs
    .readdirSync(path.join(w.repo, 'deploy', 'echo'))
    .filter((f) => f.startsWith('job-'))
    .map((f) => fs.readFileSync(path.join(w.repo, 'deploy', 'echo', f), 'utf8'));
const landing = () => git(w.repo, ['log', '-1', '--format=%H', '--', 'deploy/echo']).trim();

test('the Job lands with step 2; its success on the commit lets the step move on, and step 3 removes it', async () => {
  await echoAt(1);
  expect(jobs()).toEqual([]);
  w.merge(w.openPr('rollgen/echo/step-2').number);
  await w.pr();
  const [job, ...more] = jobs();
  expect(more).toEqual([]);
  expect(job).toMatch(/kind: Job\nmetadata:\n {2}name: echo-rollout-[0-9a-f]{10}-step-2-smoke\n/);
  expect(job).toContain('http://echo-canary.default.svc.cluster.local/');
  const step3 = w.openPr('rollgen/echo/step-3');
  // While the Job runs Argo CD reports nothing: the automatic step waits for it.
  let r = await w.pr();
  expect(r.stdout).toContain(`waiting for health: status ${ARGO_CD} to report success`);
  expect(w.fake.pull(step3.number).merged).toBe(false);
  w.fake.postStatus(landing(), ARGO_CD, 'success', 'echo is synced and healthy');
  r = await w.pr();
  // Step 2's timed gate (10 minutes) counts from the report.
  expect(r.stdout).toContain('timed gate: #');
  w.later(601);
  await w.pr();
  expect(w.fake.pull(step3.number).merged).toBe(true);
  expect(jobs()).toEqual([]);
});

test('a failed Job: Argo CD reports the app Degraded on the commit, and rollgen aborts (the Job goes with the canary)', async () => {
  await echoAt(1);
  w.merge(w.openPr('rollgen/echo/step-2').number);
  await w.pr();
  expect(jobs()).toHaveLength(1);
  const step3 = w.openPr('rollgen/echo/step-3');
  w.fake.postStatus(landing(), ARGO_CD, 'failure', 'echo is degraded');
  await w.pr();
  const abort = w.fake.pulls.find((p) => p.branch === 'rollgen/echo/abort')!;
  expect(abort.merged).toBe(true);
  expect(abort.body).toContain('echo is degraded');
  expect(w.fake.pull(step3.number).merged).toBe(false);
  expect(jobs()).toEqual([]);
});

test('an app with a job metric and no health gate is refused at the metric: nothing would read the Job', async () => {
  w = new FlowWorld(['echo'], APP);
  fs.writeFileSync(path.join(w.repo, 'apps', 'echo', 'analysis.yaml'), TEMPLATE);
  commitAll(w.repo, 'job metric', w.now);
  const r = await w.pr();
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /apps\/echo\/analysis\.yaml:9:\d+: app echo: job metric "smoke" is measured by its Job in the cluster, and rollgen reads the result from the GitOps engine's health report; give the app a health gate/,
  );
  expect(r.writes).toEqual([]);
});
