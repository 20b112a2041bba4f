/**
 * Argo blue-green analysis gates in the PR flow, measured with Argo's web provider on a loopback
 * server: a failing prePromotionAnalysis blocks the switch and aborts (the active Service never
 * leaves the old version); a failing postPromotionAnalysis aborts after the switch, sending the
 * active Service back to the old version. A passing pair goes on to scale down old.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage } from '../helpers/git-repo';

const results: Record<string, number> = { pre: 0, post: 0 };
let server: http.Server;
let w: FlowWorld;
beforeAll(async () => {
  server = http.createServer((req, res) => res.end(JSON.stringify({ errors: results[req.url!.slice(1)] })));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const template = (name: string, url: string) => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: ${name}
spec:
  metrics:
    - name: errors
      successCondition: result == 0
      provider:
        web:
          url: ${url}/${name}
          jsonPath: "{$.errors}"
`;

const ROLLOUT = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: echo
spec:
  replicas: 3
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: echo}
  strategy:
    blueGreen:
      activeService: echo
      scaleDownDelaySeconds: 0
      prePromotionAnalysis:
        templates: [{templateName: pre}]
      postPromotionAnalysis:
        templates: [{templateName: post}]
`;

/** apps/echo becomes an Argo blue-green app (the example's Deployment and Service, no Ingress) with both templates. */
function blueGreenApp(repo: string, rollout = ROLLOUT): void {
  const dir = path.join(repo, 'apps', 'echo');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fs.rmSync(path.join(dir, 'ingress.yaml'));
  fs.writeFileSync(path.join(dir, 'rollout.yaml'), rollout);
  fs.writeFileSync(path.join(dir, 'analysis.yaml'), `${template('pre', url)}---\n${template('post', url)}`);
}

const activeSelector = () =>
  fs.readFileSync(path.join(w.repo, 'deploy', 'echo', 'service-echo.yaml'), 'utf8').match(/track: (\w+)/)?.[1];

const merged = () => w.fake.pulls.filter((p) => p.merged).map((p) => p.branch);
const titleOf = (branch: string) => w.fake.pulls.find((p) => p.branch === branch)?.title ?? '';

/** The preview (step 1) merged by a person, then `runs` scheduled runs a minute apart. */
async function fromPreview(runs = 4, rollout = ROLLOUT): Promise<void> {
  w = await FlowWorld.echoAtStep('apps:\n  - source: apps/echo\n    output: deploy/echo\n', 1, (repo) =>
    blueGreenApp(repo, rollout),
  );
  for (let i = 0; i < runs; i++) {
    w.later(60);
    await w.pr();
  }
}

test('a failing prePromotionAnalysis blocks the switch and aborts: the active Service never leaves the old version', async () => {
  results.pre = 3;
  await fromPreview();
  expect(titleOf('rollgen/echo/step-1')).toContain('preview');
  expect(merged()).not.toContain('rollgen/echo/step-2');
  expect(merged()).toContain('rollgen/echo/abort');
  expect(activeSelector()).toBe('stable');
  expect(fs.existsSync(path.join(w.repo, 'deploy', 'echo', 'deployment-echo-canary.yaml'))).toBe(false);
});

test('a failing postPromotionAnalysis aborts after the switch: the active Service goes back to the old version', async () => {
  results.pre = 0;
  results.post = 2;
  await fromPreview();
  expect(titleOf('rollgen/echo/step-2')).toContain('switch');
  expect(merged()).toEqual(expect.arrayContaining(['rollgen/echo/step-2', 'rollgen/echo/abort']));
  expect(merged()).not.toContain('rollgen/echo/promote');
  expect(activeSelector()).toBe('stable');
});

test('passing analyses switch, then scale down old, then clean up', async () => {
  results.pre = 0;
  results.post = 0;
  await fromPreview(8);
  expect(merged()).toEqual(
    expect.arrayContaining(['rollgen/echo/step-2', 'rollgen/echo/promote', 'rollgen/echo/cleanup']),
  );
  expect(merged()).not.toContain('rollgen/echo/abort');
  expect(titleOf('rollgen/echo/promote')).toContain('scale down old');
  expect(activeSelector()).toBe('stable');
});

test('after an abort the preview pods stay abortScaleDownDelaySeconds: the remove PR is a timed gate that lands once it has passed', async () => {
  results.pre = 3;
  const canaryFile = () => fs.existsSync(path.join(w.repo, 'deploy', 'echo', 'deployment-echo-canary.yaml'));
  await fromPreview(
    4,
    ROLLOUT.replace('scaleDownDelaySeconds: 0', 'scaleDownDelaySeconds: 0\n      abortScaleDownDelaySeconds: 600'),
  );
  expect(merged()).toContain('rollgen/echo/abort');
  expect(activeSelector()).toBe('stable');
  expect(canaryFile()).toBe(true);
  expect(w.openPr('rollgen/echo/remove').labels).toContain('rollgen:timed');
  w.later(600);
  await w.pr();
  expect(merged()).toContain('rollgen/echo/remove');
  expect(canaryFile()).toBe(false);
});

/** Runs a minute apart until the switch (step 2) merged, then C on main, then `runs` more runs. */
async function newRevisionAfterSwitch(runs: number): Promise<void> {
  await fromPreview(0);
  for (let i = 0; i < 6 && !merged().includes('rollgen/echo/step-2'); i++) {
    w.later(60);
    await w.pr();
  }
  expect(merged()).toContain('rollgen/echo/step-2');
  bumpImage(w.repo, 'echo', '2.55', w.now);
  for (let i = 0; i < runs; i++) {
    w.later(60);
    await w.pr();
  }
}

const stableImage = () =>
  fs.readFileSync(path.join(w.repo, 'deploy', 'echo', 'deployment-echo.yaml'), 'utf8').match(/agnhost:[\d.]+/)?.[0];

test('a newer revision after the switch: the switched one is promoted behind its postPromotionAnalysis, then the newer one is previewed against it', async () => {
  results.pre = 0;
  results.post = 0;
  await newRevisionAfterSwitch(6);
  expect(merged()).toEqual(expect.arrayContaining(['rollgen/echo/promote', 'rollgen/echo/cleanup']));
  expect(merged()).not.toContain('rollgen/echo/abort');
  expect(stableImage()).toBe('agnhost:2.54');
  // The newer revision's preview waits for a person (the start gate), against 2.54, the version users reach.
  expect(w.openPr('rollgen/echo/step-1').title).toContain('preview');
  expect(activeSelector()).toBe('stable');
});

test('a newer revision after the switch whose postPromotionAnalysis fails: the switched one is never promoted, the active Service goes back', async () => {
  results.pre = 0;
  results.post = 2;
  await newRevisionAfterSwitch(4);
  expect(merged()).toContain('rollgen/echo/abort');
  expect(merged()).not.toContain('rollgen/echo/promote');
  expect(stableImage()).toBe('agnhost:2.53');
  expect(activeSelector()).toBe('stable');
});
