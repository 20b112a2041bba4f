/**
 * One app's analysis record that does not read back (another version, cut short) holds that app
 * alone: the same `rollgen pr` run still aborts another app whose analysis fails, names the broken
 * app, its landing commit and its check run, and exits 1 as for any per-app failure.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage, commitAll, git } from '../helpers/git-repo';

/** p99 latency each app's web metric answers, by request path (/echo, /shop). */
const p99: Record<string, number> = {};
let server: http.Server;
let w: FlowWorld;
beforeAll(async () => {
  server = http.createServer((req, res) => res.end(JSON.stringify({ p99: p99[req.url!.slice(1)] })));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const APPS = ['echo', 'shop'];
const entry = (app: string) => `  - source: apps/${app}
    output: deploy/${app}
    gates: {unpaused: automatic}
    analysis:
      steps:
        - step: 1
          templates: [{templateName: latency}]
`;
const CONFIG = `apps:\n${APPS.map(entry).join('')}`;

const template = (app: string) => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: latency
spec:
  metrics:
    - name: p99
      interval: 60s
      count: 2
      successCondition: result < 100
      failureCondition: result > 500
      provider:
        web:
          url: http://127.0.0.1:${(server.address() as AddressInfo).port}/${app}
          jsonPath: "{$.p99}"
`;

/**
 * Both apps at step 1 (step 1 runs by itself once its analysis passes), each analysis measured
 * once and recorded on the commit that landed its step; the step-2 PRs wait for the analyses.
 */
async function bothAnalysed(): Promise<void> {
  w = new FlowWorld(APPS, CONFIG);
  for (const app of APPS) {
    const dir = path.join(w.repo, 'apps', app);
    fs.writeFileSync(path.join(dir, 'analysis.yaml'), template(app));
    const rollout = path.join(dir, 'rollout.yaml');
    fs.writeFileSync(
      rollout,
      fs.readFileSync(rollout, 'utf8').replace('weight: 20\n          pause: {}\n', 'weight: 20\n'),
    );
  }
  commitAll(w.repo, 'analysis', w.now);
  await w.pr();
  for (const app of APPS) w.merge(w.openPr(`rollgen/${app}/adopt`).number);
  await w.pr();
  await w.pr();
  for (const app of APPS) bumpImage(w.repo, app, '2.54', w.now);
  await w.pr();
  for (const app of APPS) w.merge(w.openPr(`rollgen/${app}/step-1`).number);
  p99.echo = 50;
  p99.shop = 50;
  const first = await w.pr();
  expect(first).toMatchObject({ code: 0, stderr: '' });
  for (const app of APPS) expect(w.openPr(`rollgen/${app}/step-2`).body).toContain('- Analysis: **running**');
}

const landing = (app: string) => git(w.repo, ['log', '-1', '--format=%H', '--', `deploy/${app}`]).trim();

/** Rewrites the text of the app's check run, as a person, another rollgen or a cut-off upload would. */
function breakRecord(app: string, edit: (text: string) => string): number {
  const [run] = w.fake.runs.get(landing(app))!;
  expect(run.name).toBe(`rollgen analysis: ${app}`);
  w.fake.runs.set(landing(app), [{ ...run, output: { ...run.output, text: edit(run.output!.text!) } }]);
  return run.id;
}

test.each([
  ['another version', (t: string) => t.replace('"v":1', '"v":7'), 'version 7, expected 1 (written by a newer rollgen'],
  ['cut short', (t: string) => t.slice(0, t.length / 2), 'the JSON block has no closing fence'],
])('a record of %s holds its app alone; the other app is aborted in the same run', async (_kind, edit, detail) => {
  await bothAnalysed();
  const shopLanding = landing('shop');
  const id = breakRecord('shop', edit);
  const stepTwo = w.openPr('rollgen/shop/step-2');
  p99.echo = 900;
  w.later(60);
  const r = await w.pr();
  expect(r.code).toBe(1);
  // echo's failed analysis is aborted as ever: its abort PR opened and merged by this run.
  expect(w.fake.pulls.find((p) => p.branch === 'rollgen/echo/abort')?.merged).toBe(true);
  expect(fs.readFileSync(path.join(w.repo, 'deploy/echo/rollgen-status.yaml'), 'utf8')).toMatch(/phase: Aborted/);
  // shop is named with its commit and check run, what is wrong and what a person can do.
  expect(r.stderr).toContain(
    `shop: the analysis record in check run "rollgen analysis: shop" (id ${id}) on commit ${shopLanding} does not read back`,
  );
  expect(r.stderr).toContain(detail);
  expect(r.stderr).toContain('`rollgen retry shop --pr`');
  expect(r.stderr).toContain('`rollgen abort shop --pr`');
  expect(r.stderr).toMatch(
    /rollgen holds shop: an analysis record does not read back \(above\); the other apps are done/,
  );
  // shop is held: nothing opened, merged, aborted or recorded for it.
  expect(r.writes.filter((c) => JSON.stringify(c.args).includes('rollgen/shop/'))).toEqual([]);
  expect(r.calls.filter((c) => c.op === 'putCheckRun' && JSON.stringify(c.args).includes(shopLanding))).toEqual([]);
  expect(w.fake.pull(stepTwo.number)).toMatchObject({ state: 'open', merged: false });
  expect(w.fake.pulls.some((p) => p.branch === 'rollgen/shop/abort')).toBe(false);
  // The way out the message names: retry opens (here: keeps) the next step's PR; a person's
  // merge lands step 2, whose commit starts a record of its own, and the runs are clean again.
  const retry = await w.run(['retry', 'shop', '--pr']);
  expect(retry.code).toBe(0);
  w.merge(w.openPr('rollgen/shop/step-2').number);
  const after = await w.pr();
  expect(after).toMatchObject({ code: 0, stderr: '' });
});

test('--dry-run holds the broken app the same way and writes nothing', async () => {
  await bothAnalysed();
  breakRecord('shop', (t) => t.replace('"v":1', '"v":7'));
  p99.echo = 900;
  w.later(60);
  const r = await w.pr('--dry-run');
  expect(r.code).toBe(1);
  expect(r.writes).toEqual([]);
  expect(r.stdout).toContain('echo: would open a PR from rollgen/echo/abort');
  expect(r.stderr).toContain(`shop: the analysis record in check run "rollgen analysis: shop"`);
});
