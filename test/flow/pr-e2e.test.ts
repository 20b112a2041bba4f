import * as fs from 'fs';
import * as path from 'path';
import { parseMarker } from '../../src/flow/marker';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage, commitAll } from '../helpers/git-repo';

const CONFIG = `apps:
  - source: apps/echo-a
    output: deploy/echo-a
    gates: {unpaused: automatic}
  - source: apps/echo-b
    output: deploy/echo-b
pr:
  labels: [deploy]
`;

let w: FlowWorld;
beforeEach(() => (w = new FlowWorld(['echo-a', 'echo-b'], CONFIG)));
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const status = (app: string) => fs.readFileSync(path.join(w.repo, 'deploy', app, 'rollgen-status.yaml'), 'utf8');
const ops = (r: { writes: readonly { op: string }[] }) => r.writes.map((c) => c.op);

test('a whole rollout of echo-a through rollgen pr runs, merges by a person, a timed gate and checks', async () => {
  // Taking the apps under rollgen: a person approves the adoption, the selector switch follows by itself.
  let r = await w.pr();
  expect(r.code).toBe(0);
  const adoptA = w.openPr('rollgen/echo-a/adopt');
  expect(adoptA.labels).toEqual(['deploy', 'rollgen', 'rollgen:manual']);
  expect(w.openPr('rollgen/echo-b/adopt').number).not.toBe(adoptA.number);
  expect((await w.pr()).writes).toEqual([]);
  w.merge(adoptA.number);
  w.merge(w.openPr('rollgen/echo-b/adopt').number);
  r = await w.pr();
  expect(w.openPr('rollgen/echo-a/select').labels).toContain('rollgen:automatic');
  r = await w.pr();
  expect(ops(r)).toEqual(['mergePull', 'mergePull']);
  expect((await w.pr()).stdout).toMatch(/^echo-a: up to date$/m);

  // A new version: step 1 waits for a person; a second new version updates the same PR.
  w.later(60);
  bumpImage(w.repo, 'echo-a', '2.54', w.now);
  r = await w.pr();
  const step1 = w.openPr('rollgen/echo-a/step-1');
  expect(step1.body).toContain('**Step 1 of 4**');
  const firstDigest = parseMarker(step1.body)!.digest;
  bumpImage(w.repo, 'echo-a', '2.55', w.now);
  r = await w.pr();
  expect(ops(r)).toEqual(['commitToBranch', 'updatePull']);
  expect(w.openPr('rollgen/echo-a/step-1').number).toBe(step1.number);
  expect(parseMarker(w.openPr('rollgen/echo-a/step-1').body)!.digest).not.toBe(firstDigest);
  // The base moves elsewhere: nothing to write.
  fs.writeFileSync(path.join(w.repo, 'NOTES.md'), 'unrelated\n');
  commitAll(w.repo, 'notes', w.now);
  expect((await w.pr()).writes).toEqual([]);
  w.later(30);
  w.merge(step1.number);

  // Step 2's gate (pause: {}) is manual: rollgen never merges it.
  await w.pr();
  const step2 = w.openPr('rollgen/echo-a/step-2');
  expect(step2.labels).toContain('rollgen:manual');
  w.later(3600);
  r = await w.pr();
  expect(r.writes).toEqual([]);
  expect(r.stdout).toMatch(/echo-a: manual gate: a person merges #\d+/);
  w.merge(step2.number);

  // Step 3 waits 600s counted from when step 2 reached main, then for green checks.
  await w.pr();
  const step3 = w.openPr('rollgen/echo-a/step-3');
  expect(step3.labels).toContain('rollgen:timed');
  w.later(599);
  r = await w.pr();
  expect(r.calls.map((c) => c.op)).toEqual(['listPulls']);
  const due = new Date(Date.parse(w.fake.pull(step2.number).mergedAt!) + 600_000).toISOString();
  expect(r.stdout).toContain(`timed gate: #${step3.number} may merge from ${due}`);
  w.later(2);
  w.fake.checkStates.set(step3.headSha, 'pending');
  r = await w.pr();
  expect(r.calls.map((c) => c.op)).toEqual(['listPulls', 'checks']);
  expect(r.stdout).toMatch(/checks on #\d+ are pending/);
  w.fake.checkStates.set(step3.headSha, 'failure');
  expect((await w.pr()).writes).toEqual([]);
  w.fake.checkStates.set(step3.headSha, 'success');
  expect(ops(await w.pr())).toEqual(['mergePull']);

  // Step 4, promote and clean-up run by themselves.
  for (const branch of ['step-4', 'promote', 'cleanup']) {
    await w.pr();
    expect(w.openPr(`rollgen/echo-a/${branch}`).labels).toContain('rollgen:automatic');
    expect(ops(await w.pr())).toEqual(['mergePull']);
  }
  r = await w.pr();
  expect(r.writes).toEqual([]);
  expect(status('echo-a')).toMatch(/phase: Healthy/);
  expect(w.fake.open()).toEqual([]);
  const merged = w.fake.pulls
    .filter((p) => p.merged && p.branch.startsWith('rollgen/echo-a/'))
    .map((p) => p.branch.split('/')[2]);
  expect(merged).toEqual(['adopt', 'select', 'step-1', 'step-2', 'step-3', 'step-4', 'promote', 'cleanup']);
  expect(w.fake.merges.filter((m) => m.method !== 'merge').every((m) => m.method === 'squash')).toBe(true);
});
