/**
 * A Kruise app analysed through rollgen.yaml `analysis:` with Argo's web provider on a loopback
 * server: an inconclusive result holds the step and asks a person (PR body, run log, check run
 * action_required); a person's merge moves on.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';
import { git } from '../helpers/git-repo';

let p99 = 300;
let server: http.Server;
let w: FlowWorld;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.end(JSON.stringify({ p99 })));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const template = (url: string, initialDelay = '0s') => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: latency
spec:
  metrics:
    - name: p99
      initialDelay: ${initialDelay}
      successCondition: result < 100
      failureCondition: result > 500
      provider:
        web:
          url: ${url}
          jsonPath: "{$.p99}"
`;

const CONFIG = `apps:
  - source: apps/echo
    output: deploy/echo
    gates: {unpaused: automatic}
    analysis:
      steps:
        - step: 3
          templates: [{templateName: latency}]
`;

/** echo at step `k`, the latency template in its source from the start. */
async function echoAt(k: number, config = CONFIG, initialDelay?: string): Promise<void> {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/latency`;
  w = await FlowWorld.echoAtStep(config, k, (repo) =>
    fs.writeFileSync(path.join(repo, 'apps', 'echo', 'analysis.yaml'), template(url, initialDelay)),
  );
}

test('inconclusive: the automatic step holds and asks a person; the check run says action_required', async () => {
  p99 = 300;
  await echoAt(3);
  const step4 = w.openPr('rollgen/echo/step-4');
  const r = await w.pr();
  // The measurement was taken by the run that opened step 4; this one reads the record and takes nothing.
  expect(r.calls.map((c) => c.op)).toEqual(['listPulls', 'checkRuns']);
  expect(w.fake.http(r.calls)).toBe(2);
  expect(r.stdout).toContain(`analysis inconclusive`);
  expect(r.stdout).toContain(`a person decides: merge #${step4.number} to go on, or run rollgen abort echo --pr`);
  expect(w.fake.pull(step4.number).merged).toBe(false);
  expect(w.openPr('rollgen/echo/step-4').body).toContain('- Analysis: **inconclusive**');
  const landing = git(w.repo, ['log', '-1', '--format=%H', '--', 'deploy/echo']).trim();
  expect(w.fake.runs.get(landing)![0]).toMatchObject({ conclusion: 'action_required' });
  // Later runs keep holding and write nothing.
  w.later(3600);
  const held = await w.pr();
  expect(held.writes).toEqual([]);
  expect(held.calls.map((c) => c.op)).toEqual(['listPulls', 'checkRuns']);
  w.merge(step4.number);
  await w.pr();
  expect(w.openPr('rollgen/echo/promote')).toBeDefined();
});

test('a good result lets the automatic step merge; no analysis gates the steps before', async () => {
  p99 = 50;
  await echoAt(3);
  const step4 = w.openPr('rollgen/echo/step-4');
  await w.pr();
  expect(w.fake.pull(step4.number).merged).toBe(true);
});

test('a timed gate after a step analysis counts from when the analysis passed, as Argo starts a pause after it', async () => {
  p99 = 50;
  // Step 2's gate is `pause: {duration: 600}`; its analysis measures 120 s after the step landed.
  await echoAt(2, CONFIG.replace('step: 3', 'step: 2'), '120s');
  const step3 = w.openPr('rollgen/echo/step-3');
  const landed = w.now.getTime();
  w.later(120);
  let r = await w.pr();
  expect(r.stdout).toContain(`may merge from ${new Date(landed + 720_000).toISOString()}`);
  w.later(500);
  r = await w.pr();
  expect(w.fake.pull(step3.number).merged).toBe(false);
  w.later(101);
  await w.pr();
  expect(w.fake.pull(step3.number).merged).toBe(true);
});
