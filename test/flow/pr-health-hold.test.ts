/**
 * `onFailure: hold` after a failed health gate: a person who closes the abort PR unmerged keeps the
 * canary and holds the app. A later health success is no approval: nothing opens or merges until
 * `retry --pr`, `abort --pr` or a new revision (QA probe 3, findings 1 and 9).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseMarker } from '../../src/flow/marker';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage, commitAll, git } from '../helpers/git-repo';

const ONE_APP = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n';
const FLUX = 'kustomization/echo/6f2a1b3c';
let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const head = () => git(w.repo, ['rev-parse', 'HEAD']).trim();
const branches = (open = true) => (open ? w.fake.open() : w.fake.pulls).map((p) => p.branch.split('/')[2]);
const held = (n: number) =>
  `held: #${n} was closed unmerged; \`rollgen retry echo --pr\` resumes, \`rollgen abort echo --pr\` aborts`;

/** echo at step 3 (automatic gates), health gated with onFailure: hold; Flux reports the step failed; abort PR opened. */
async function abortProposed(): Promise<number> {
  w = await FlowWorld.echoAtStep(ONE_APP, 3);
  fs.appendFileSync(
    path.join(w.repo, 'rollgen.yaml'),
    `health:\n  statuses: ['kustomization/{name}/*']\nonFailure: hold\n`,
  );
  commitAll(w.repo, 'health gate', w.now);
  w.fake.postStatus(head(), FLUX, 'failure', 'degraded');
  await w.pr();
  expect(branches()).toEqual(['abort']);
  const abort = w.openPr('rollgen/echo/abort');
  expect(parseMarker(abort.body)!.failure).toBe(true);
  return abort.number;
}

/** `rollgen pr` several times over `seconds`: nothing opens, nothing merges, and it says why. */
async function staysHeld(abort: number, seconds = 3600): Promise<void> {
  const merges = w.fake.merges.length;
  for (let i = 0; i < 3; i++) {
    w.later(seconds / 3);
    const r = await w.pr();
    expect(r.code).toBe(0);
    expect(r.writes).toEqual([]);
    expect(r.stdout).toContain(`echo: ${held(abort)}`);
    expect(r.stdout).not.toContain('a person merges the abort PR');
  }
  expect(w.fake.open()).toEqual([]);
  expect(w.fake.merges).toHaveLength(merges);
}

test('closing the abort PR holds: no step PR opens or merges after health recovers, until retry --pr', async () => {
  const abort = await abortProposed();
  w.fake.personClose(abort);
  const note = await w.pr();
  expect(note.writes.map((c) => c.op)).toEqual(['comment', 'updatePull']);
  expect(note.stdout).toContain(held(abort));
  expect(w.fake.comments.find((c) => c.number === abort)!.body).toMatch(
    /this abort PR was closed without merging, so the canary stays at its step; no step PR opens or merges for echo, even once its health recovers/,
  );
  expect(parseMarker(w.fake.pull(abort).body)!.noted).toBe(true);
  // Flux reports the step healthy again: the person's "keep the canary" still holds.
  w.fake.postStatus(head(), FLUX, 'success');
  await staysHeld(abort);
  // retry --pr is the person's word to go on: the next step's PR opens, and the flow merges it.
  expect((await w.run(['retry', 'echo', '--pr'])).code).toBe(0);
  const step4 = w.openPr('rollgen/echo/step-4');
  expect(step4.number).toBeGreaterThan(abort);
  const r = await w.pr();
  expect(r.stdout).toContain(`merge #${step4.number} (gate passed, checks green)`);
  expect(w.fake.pull(step4.number).merged).toBe(true);
});

test('closed and recovered before the next run: the hold note is still posted and nothing opens', async () => {
  const abort = await abortProposed();
  w.fake.postStatus(head(), FLUX, 'success');
  w.fake.personClose(abort);
  w.later(60);
  const r = await w.pr();
  expect(r.writes.map((c) => c.op)).toEqual(['comment', 'updatePull']);
  expect(r.stdout).toContain(`note on #${abort} that echo is held`);
  await staysHeld(abort, 600);
  expect(branches(false).filter((b) => b === 'step-4')).toHaveLength(1);
});

test('while the failure stands, the hold message names the closed PR, not "a person merges" it', async () => {
  const abort = await abortProposed();
  w.fake.personClose(abort);
  await w.pr();
  const r = await w.pr();
  expect(r.stdout).toContain(`(status ${FLUX} is failure: degraded)`);
  expect(r.stdout).toContain(`; ${held(abort)}`);
  expect(r.stdout).not.toContain('a person merges the abort PR');
});

test('abort --pr on the held app opens a new abort PR for a person; the flow waits for it', async () => {
  const abort = await abortProposed();
  w.fake.personClose(abort);
  w.fake.postStatus(head(), FLUX, 'success');
  await w.pr();
  expect((await w.run(['abort', 'echo', '--pr'])).code).toBe(0);
  const again = w.openPr('rollgen/echo/abort');
  expect(again.number).toBeGreaterThan(abort);
  const r = await w.pr();
  expect(r.writes).toEqual([]);
  expect(r.stdout).toContain(`waiting for a person to merge or close #${again.number} (abort)`);
});

test('the hold is for that step: after retry, a failure of the next step gets its own abort PR', async () => {
  const abort = await abortProposed();
  w.fake.personClose(abort);
  w.fake.postStatus(head(), FLUX, 'success');
  await w.pr();
  await w.run(['retry', 'echo', '--pr']);
  w.later(60);
  await w.pr(); // merges step 4
  expect(branches(false)).toContain('step-4');
  w.later(60);
  w.fake.postStatus(head(), FLUX, 'failure', 'step 4 degraded');
  await w.pr();
  const second = w.openPr('rollgen/echo/abort');
  expect(second.number).toBeGreaterThan(abort);
  expect(second.body).toContain('step 4 degraded');
});

test('a new revision ends the hold: its first step PR opens', async () => {
  const abort = await abortProposed();
  w.fake.personClose(abort);
  w.fake.postStatus(head(), FLUX, 'success');
  await w.pr();
  bumpImage(w.repo, 'echo', '2.60', w.now);
  w.fake.postStatus(head(), FLUX, 'success');
  const r = await w.pr();
  expect(r.stdout).not.toContain('held:');
  expect(r.stdout).toMatch(/echo: opened #\d+/);
  expect(w.openPr('rollgen/echo/step-1').body).toContain('**Step 1 of 4**');
});

test('an abort a person asked for (abort --pr) and then closed, with no failure, holds nothing: the flow goes on', async () => {
  w = await FlowWorld.echoAtStep(ONE_APP, 3);
  expect((await w.run(['abort', 'echo', '--pr'])).code).toBe(0);
  const abort = w.openPr('rollgen/echo/abort');
  expect(parseMarker(abort.body)!.failure).toBeUndefined();
  w.fake.personClose(abort.number);
  const r = await w.pr();
  expect(r.stdout).not.toContain('held:');
  expect(w.openPr('rollgen/echo/step-4').number).toBeGreaterThan(abort.number);
});
