/**
 * The health gate in `rollgen pr` runs: statuses Argo CD / Flux post on the commit that carries the
 * step hold timed and automatic merges until success, and a failure or error aborts by itself
 * (or, with onFailure: hold, opens the abort PR for a person).
 */
import * as fs from 'fs';
import * as path from 'path';
import { ScmError } from '../../src/errors';
import { FlowWorld } from '../helpers/flow-world';
import { commitAll, git } from '../helpers/git-repo';

const ONE_APP = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n';
const FLUX = 'kustomization/echo/6f2a1b3c';
let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

/** echo at step k with the next step's PR open, then the health gate switched on in rollgen.yaml (a later commit of main). */
async function healthGatedAt(k: number, extra = ''): Promise<void> {
  w = await FlowWorld.echoAtStep(ONE_APP, k);
  fs.appendFileSync(path.join(w.repo, 'rollgen.yaml'), `health:\n  statuses: ['kustomization/{name}/*']\n${extra}`);
  commitAll(w.repo, 'health gate', w.now);
}

const head = () => git(w.repo, ['rev-parse', 'HEAD']).trim();
/** The commit that landed the app's current step (last change under its output). */
const landing = () => git(w.repo, ['log', '-1', '--format=%H', '--', 'deploy/echo']).trim();
const status = () => fs.readFileSync(path.join(w.repo, 'deploy', 'echo', 'rollgen-status.yaml'), 'utf8');

test('no status yet: an automatic step waits, says what it awaits in the log and the PR; success on a later commit merges it', async () => {
  await healthGatedAt(3);
  const step4 = w.openPr('rollgen/echo/step-4');
  const merged = w.fake.merges.length;
  let r = await w.pr();
  expect(r.calls.map((c) => c.op)).toEqual(['listPulls', 'commitStatuses', 'commitStatuses', 'updatePull']);
  expect(r.stdout).toContain('echo: waiting for health: status kustomization/echo/* to report success');
  expect(w.openPr('rollgen/echo/step-4').body).toContain('- Health: waiting for status kustomization/echo/*');
  expect(w.fake.merges).toHaveLength(merged);
  // A rerun with nothing new makes no write.
  expect((await w.pr()).writes).toEqual([]);
  // Flux posts success on main's head, a commit after the step's that still carries it.
  w.fake.postStatus(head(), FLUX, 'pending');
  expect((await w.pr()).writes).toEqual([]);
  w.fake.postStatus(head(), FLUX, 'success');
  r = await w.pr();
  expect(r.calls.map((c) => c.op)).toEqual(['listPulls', 'commitStatuses', 'checks', 'updatePull', 'mergePull']);
  expect(w.fake.pull(step4.number).merged).toBe(true);
});

test('a timed gate counts from when health success arrived, not from when the step landed', async () => {
  await healthGatedAt(2);
  const step3 = w.openPr('rollgen/echo/step-3');
  w.later(3600);
  expect((await w.pr()).stdout).toContain('waiting for health');
  w.fake.postStatus(landing(), FLUX, 'success');
  const since = w.now;
  let r = await w.pr();
  expect(r.stdout).toContain(`may merge from ${new Date(since.getTime() + 600_000).toISOString()}`);
  w.later(601);
  r = await w.pr();
  expect(w.fake.pull(step3.number).merged).toBe(true);
});

test('a degraded status aborts by itself: the abort PR, with the reason, is opened and merged in one run; the app then holds', async () => {
  await healthGatedAt(2);
  const step3 = w.openPr('rollgen/echo/step-3');
  w.fake.postStatus(landing(), 'kustomization/echo/6f2a1b3c', 'failure', 'health check failed after 30s');
  const r = await w.pr();
  expect(r.code).toBe(0);
  const abort = w.fake.pulls.find((p) => p.branch === 'rollgen/echo/abort')!;
  expect(abort.merged).toBe(true);
  expect(abort.body).toContain('rollgen aborts: the GitOps engine reports the step failed');
  expect(abort.body).toContain('health check failed after 30s');
  expect(w.fake.pull(step3.number).state).toBe('closed');
  expect(w.fake.pull(step3.number).merged).toBe(false);
  expect(status()).toMatch(/phase: Aborted/);
  // Held: the failure is still on an older commit, but nothing more happens until a new revision or retry.
  const after = await w.pr();
  expect(after.writes).toEqual([]);
  expect(w.fake.open()).toEqual([]);
});

test('onFailure: hold opens the abort PR for a person and merges nothing; a rerun does not duplicate it', async () => {
  await healthGatedAt(3, 'onFailure: hold\n');
  w.fake.postStatus(head(), FLUX, 'error', 'sync failed');
  const merged = w.fake.merges.length;
  let r = await w.pr();
  const abort = w.openPr('rollgen/echo/abort');
  expect(abort.body).toContain('**rollgen proposes to abort: the GitOps engine reports the step failed');
  expect(w.fake.merges).toHaveLength(merged);
  expect(r.stdout).toMatch(/onFailure: hold/);
  r = await w.pr();
  expect(r.writes).toEqual([]);
  expect(r.stdout).toContain(`a person merges the abort PR #${abort.number} (onFailure: hold)`);
  // A person closes the abort PR: rollgen respects it and opens no second one.
  w.fake.personClose(abort.number);
  r = await w.pr();
  expect(w.fake.open()).toEqual([]);
  expect(w.fake.pulls.filter((p) => p.branch === 'rollgen/echo/abort')).toHaveLength(1);
});

test('a manual gate is never merged by health success, but a failure still aborts', async () => {
  await healthGatedAt(1);
  w.fake.postStatus(head(), FLUX, 'success');
  const merged = w.fake.merges.length;
  const r = await w.pr();
  expect(r.stdout).toMatch(/manual gate: a person merges/);
  expect(w.fake.merges).toHaveLength(merged);
  w.fake.postStatus(head(), FLUX, 'failure');
  await w.pr();
  expect(w.fake.pulls.find((p) => p.branch === 'rollgen/echo/abort')?.merged).toBe(true);
});

test('the code host refusing the status read of one app skips that app only; the run exits 1 naming it', async () => {
  w = new FlowWorld(
    ['echo-a', 'echo-b'],
    `apps:\n  - source: apps/echo-a\n    output: deploy/echo-a\n    health: {statuses: ['kustomization/{name}/*']}\n  - source: apps/echo-b\n    output: deploy/echo-b\n`,
  );
  await w.pr();
  w.merge(w.openPr('rollgen/echo-a/adopt').number);
  w.merge(w.openPr('rollgen/echo-b/adopt').number);
  const refuse = jest
    .spyOn(w.fake, 'commitStatuses')
    .mockRejectedValue(new ScmError('read statuses', 403, 'Resource not accessible by integration'));
  const r = await w.pr();
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/echo-a: .*Resource not accessible by integration/);
  expect(r.stderr).toContain('the code host refused requests for echo-a');
  expect(w.fake.open().map((p) => p.branch)).toEqual(['rollgen/echo-b/select']);
  refuse.mockRestore();
});

test("a run's git work does not grow with apps: one log for their histories, one for their source commits, one rev-list for their gates", async () => {
  const apps = ['echo-a', 'echo-b', 'echo-c'];
  const health = "    health: {statuses: ['kustomization/{name}/*']}\n";
  w = new FlowWorld(
    apps,
    `apps:\n${apps.map((a) => `  - source: apps/${a}\n    output: deploy/${a}\n${health}`).join('')}`,
  );
  await w.pr();
  for (const a of apps) w.merge(w.openPr(`rollgen/${a}/adopt`).number);
  const from = w.gitCalls.length;
  const r = await w.pr();
  expect(r.code).toBe(0);
  const ran = w.gitCalls.slice(from).map((args) => args[0]);
  expect(ran.filter((c) => c === 'log')).toHaveLength(2);
  expect(ran.filter((c) => c === 'rev-list')).toHaveLength(1);
  // Every app proposed its next step and read the health of the step its base carries.
  expect(w.fake.open().map((p) => p.branch)).toEqual(apps.map((a) => `rollgen/${a}/select`));
  const landing = (a: string) =>
    git(w.repo, ['log', '--first-parent', '-1', '--format=%H', '--', `deploy/${a}`]).trim();
  const readOn = r.calls.filter((c) => c.op === 'commitStatuses').map((c) => c.args[0]);
  expect(new Set(apps.map(landing)).size).toBe(apps.length);
  for (const a of apps) expect(readOn).toContain(landing(a));
});
