import * as fs from 'fs';
import * as path from 'path';
import { parseMarker } from '../../src/flow/marker';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage } from '../helpers/git-repo';

/** removal: two-commits through `rollgen pr`: the second half of a clean-up, abort or revert is its own automatic PR. */
const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    removal: two-commits\n';
let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const out = () => fs.readdirSync(path.join(w.repo, 'deploy/echo')).sort();
const status = () => fs.readFileSync(path.join(w.repo, 'deploy/echo/rollgen-status.yaml'), 'utf8');
const ops = (r: { writes: readonly { op: string }[] }) => r.writes.map((c) => c.op);

/** echo on step `k` of a new revision, the next step's PR open. */
async function rolloutAt(k: number): Promise<void> {
  w = await FlowWorld.echoAtStep(CONFIG, k);
}

/** The drained canary's workloads: rollgen opens `remove`, merges it itself, and the app then rests. */
async function expectRemovePr(): Promise<void> {
  const r = await w.pr();
  expect(ops(r)).toEqual(['commitToBranch', 'createPull']);
  const remove = w.openPr('rollgen/echo/remove');
  expect(remove.labels).toEqual(['rollgen', 'rollgen:automatic']);
  expect(remove.title).toBe('rollgen(echo): remove the drained canary workloads of 67bc2de5cb');
  expect(parseMarker(remove.body)).toMatchObject({ target: 'remove', origin: 'flow' });
  expect(
    w.fake
      .changesOf(remove.number)
      .filter((c) => c.content === null)
      .map((c) => path.basename(c.path))
      .sort(),
  ).toEqual(['deployment-echo-canary.yaml', 'service-echo-canary.yaml']);
  expect(ops(await w.pr())).toEqual(['mergePull']);
  const rest = await w.pr();
  expect(rest.writes).toEqual([]);
  expect(rest.stdout).toMatch(/^echo: up to date$/m);
  expect(out().filter((f) => f.includes('canary'))).toEqual([]);
  expect(status()).not.toMatch(/draining/);
  expect(w.fake.open()).toEqual([]);
}

test('clean-up takes two automatic PRs: routes to stable (cleanup), then the canary workloads (remove)', async () => {
  await rolloutAt(4);
  w.merge(w.openPr('rollgen/echo/promote').number);
  await w.pr();
  const cleanup = w.openPr('rollgen/echo/cleanup');
  expect(cleanup.labels).toContain('rollgen:automatic');
  expect(cleanup.title).toBe('rollgen(echo): clean up after 67bc2de5cb: routes to stable, canary workloads next');
  expect(cleanup.body).toContain('the canary Deployment and Service stay until the next PR removes them');
  expect(cleanup.body).toMatch(/\| echo-rollout \| canary \| 5 \| 5 \| 0% \| - \|/); // canary pods still run, without traffic
  expect(ops(await w.pr())).toEqual(['mergePull']);
  expect(status()).toMatch(/draining: 4/);
  expect(out()).toContain('deployment-echo-canary.yaml');
  expect(out()).not.toContain('ingress-echo-canary.yaml');
  await expectRemovePr();
  const merged = w.fake.pulls.filter((p) => p.merged).map((p) => p.branch.split('/')[2]);
  expect(merged.slice(-3)).toEqual(['promote', 'cleanup', 'remove']);
});

test('abort --pr --merge drains; rollgen pr then removes the workloads by itself instead of waiting for a person', async () => {
  await rolloutAt(2);
  const abort = await w.run(['abort', 'echo', '--pr', '--merge']);
  expect(abort.code).toBe(0);
  expect(w.fake.pulls.find((p) => p.branch === 'rollgen/echo/abort')!.title).toBe(
    'rollgen(echo): abort 67bc2de5cb: all traffic to stable, canary workloads next',
  );
  expect(status()).toMatch(/phase: Aborted[\s\S]*draining: 2/);
  await expectRemovePr();
  expect(status()).toMatch(/phase: Aborted/);
});

test('the source going back to stable mid-rollout: revert, then remove, on two branches', async () => {
  await rolloutAt(2);
  const step3 = w.openPr('rollgen/echo/step-3');
  bumpImage(w.repo, 'echo', '2.53', w.now);
  await w.pr();
  expect(w.fake.pull(step3.number).state).toBe('closed');
  expect(w.openPr('rollgen/echo/revert').labels).toContain('rollgen:automatic');
  expect(ops(await w.pr())).toEqual(['mergePull']);
  const r = await w.pr();
  expect(r.stdout).not.toMatch(/merged after this checkout/);
  expect(w.openPr('rollgen/echo/remove').title).toBe(
    'rollgen(echo): remove the drained canary workloads of 60c72b2748',
  );
});
