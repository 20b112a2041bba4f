import * as fs from 'fs';
import { parseMarker } from '../../src/flow/marker';
import { FlowWorld } from '../helpers/flow-world';
import {
  type FleetTarget,
  OUTPUTS,
  ONE_WAVE,
  bumpFleetImage,
  driveFleet,
  fleetFlowWorld,
  oneWaveAtStep2,
  statusOf as statusOfTarget,
  touchedBy,
} from '../helpers/fleet-flow';
import { git } from '../helpers/git-repo';

/**
 * `abort|retry --wave W` (docs/fleet.md, issue 24): ONE PR (`--pr`) or one commit (`--commit`) for
 * the whole wave, built as the automatic `onFailure: wave` abort is, touching only the targets that
 * need it; per-target commands work as before.
 */
jest.setTimeout(600_000);

let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const statusOf = (t: FleetTarget) => statusOfTarget(w, t);
const pullsOn = (branch: string) => w.fake.pulls.filter((p) => p.branch === branch);
const head = () => git(w.repo, ['rev-parse', 'HEAD']).trim();

/** The fleet adopted, a new image in `targets`, the wave's step 1 merged and its step-2 PR open. */
async function atStep2(targets?: Parameters<typeof oneWaveAtStep2>[0]): Promise<void> {
  w = await oneWaveAtStep2(targets);
}

test('abort --wave --pr: one PR for a 3-target wave, the step PR superseded; a rerun changes nothing; retry --wave brings the wave back to step 1 in one PR', async () => {
  await atStep2();
  const step2 = w.openPr('rollgen/wave_3aall/step-2');
  const r = await w.run(['abort', '--wave', 'all', '--pr']);
  expect(r.code).toBe(0);
  // One PR where it was one per target (3), touching every target's output, for a person to merge.
  expect(r.writes.filter((c) => c.op === 'createPull')).toHaveLength(1);
  const abort = w.openPr('rollgen/wave_3aall/abort');
  expect(touchedBy(w, abort.number)).toEqual(['staging', 'prod-eu', 'prod-us']);
  expect(abort.title).toBe('rollgen(wave all): abort');
  expect(abort.labels).toContain('rollgen:manual');
  for (const t of ['staging', 'prod-eu', 'prod-us'])
    expect(abort.body).toMatch(new RegExp(`\\| web-${t} \\| ${t} \\| abort \\|`));
  expect(parseMarker(abort.body)).toMatchObject({ app: 'wave:all', target: 'abort', origin: 'command' });
  // The wave's open step PR is closed as superseded, as a per-app abort closes the app's step PR.
  expect(w.fake.pull(step2.number)).toMatchObject({ state: 'closed', merged: false });
  expect(parseMarker(w.fake.pull(step2.number).body)!.closedBy).toBe('rollgen');
  expect(w.fake.open().map((p) => p.branch)).toEqual(['rollgen/wave_3aall/abort']);
  // A rerun finds the PR: no write, one request.
  const again = await w.run(['abort', '--wave', 'all', '--pr']);
  expect(again.code).toBe(0);
  expect(again.writes).toEqual([]);
  expect(again.calls.map((c) => c.op)).toEqual(['listPulls']);
  // The flow waits for the person's PR and writes nothing.
  const waits = await w.pr();
  expect(waits.writes).toEqual([]);
  expect(waits.stdout).toContain(
    `wave:all: wave all waits for a person to merge or close #${abort.number} (abort of wave all)`,
  );
  w.merge(abort.number);
  for (const t of ['staging', 'prod-eu', 'prod-us'] as const) expect(statusOf(t)).toMatch(/phase: Aborted/);
  expect((await w.pr()).stdout).toContain(
    'wave:all: wave all failed (web-staging, web-prod-eu, web-prod-us aborted): fix the source, or `rollgen retry --wave all --pr` (one PR for the wave); later waves wait',
  );
  // Nothing left to abort: refused as the per-target command is, each target's reason given, nothing written.
  const perTarget = await w.run(['abort', 'web', '--target', 'staging', '--pr']);
  const none = await w.run(['abort', '--wave', 'all', '--pr']);
  expect(perTarget.code).not.toBe(0);
  expect(none.code).toBe(perTarget.code);
  expect(none.writes).toEqual([]);
  expect(none.stderr).toContain('wave all: no target to abort');
  for (const t of ['staging', 'prod-eu', 'prod-us']) expect(none.stderr).toContain(`web-${t}/web is aborted`);
  // retry --wave: one PR bringing all three back to step 1; the flow then goes on with the wave's steps.
  const retry = await w.run(['retry', '--wave', 'all', '--pr', '--merge']);
  expect(retry.code).toBe(0);
  expect(retry.writes.filter((c) => c.op === 'createPull')).toHaveLength(1);
  const retried = pullsOn('rollgen/wave_3aall/retry');
  expect(retried).toHaveLength(1);
  expect(retried[0].merged).toBe(true);
  expect(touchedBy(w, retried[0].number)).toEqual(['staging', 'prod-eu', 'prod-us']);
  for (const t of ['staging', 'prod-eu', 'prod-us'] as const) {
    expect(statusOf(t)).toMatch(/phase: Progressing/);
    expect(statusOf(t)).toMatch(/step: 1\b/);
  }
  const { merged } = await driveFleet(w);
  expect(merged.map((m) => m.branch)[0]).toBe('rollgen/wave_3aall/step-2');
  for (const t of ['staging', 'prod-eu', 'prod-us'] as const) expect(statusOf(t)).toMatch(/phase: Healthy/);
});

test('abort --wave --pr moves only the targets with a canary live: an aborted and a never-started target are named, not touched; their open PRs superseded', async () => {
  await atStep2(['staging', 'prod-eu']); // prod-us runs its source fully promoted: nothing starts there
  // prod-eu aborted on its own; a person's abort PR for staging is open.
  expect((await w.run(['abort', 'web', '--target', 'prod-eu', '--pr', '--merge'])).code).toBe(0);
  expect(statusOf('prod-eu')).toMatch(/phase: Aborted/);
  expect((await w.run(['abort', 'web', '--target', 'staging', '--pr'])).code).toBe(0);
  const own = w.openPr('rollgen/web-staging/abort');
  const step2 = w.openPr('rollgen/wave_3aall/step-2');
  const r = await w.run(['abort', '--wave', 'all', '--pr']);
  expect(r.code).toBe(0);
  const abort = w.openPr('rollgen/wave_3aall/abort');
  expect(touchedBy(w, abort.number)).toEqual(['staging']);
  expect(abort.body).toMatch(/\| web-staging \| staging \| abort \|/);
  expect(abort.body).not.toMatch(/\| web-prod-(eu|us) \|/);
  expect(abort.body).toMatch(/Not touched:\n\n- nothing to abort: web-prod-eu\/web is aborted/);
  expect(abort.body).toMatch(/- nothing to abort: web-prod-us\/web is healthy/);
  for (const closed of [own, step2]) {
    expect(w.fake.pull(closed.number)).toMatchObject({ state: 'closed', merged: false });
    expect(r.stdout).toContain(`close #${closed.number} (superseded by #${abort.number})`);
  }
  expect(w.fake.open().map((p) => p.branch)).toEqual(['rollgen/wave_3aall/abort']);
  w.merge(abort.number);
  expect(statusOf('staging')).toMatch(/phase: Aborted/);
  expect(statusOf('prod-us')).toMatch(/phase: Healthy/);
  // retry --wave retries the aborted targets only.
  expect((await w.run(['retry', '--wave', 'all', '--pr'])).code).toBe(0);
  expect(touchedBy(w, w.openPr('rollgen/wave_3aall/retry').number)).toEqual(['staging', 'prod-eu']);
});

test('--wave naming no wave of rollgen.yaml is refused with the known names; --dry-run --offline previews the one wave PR', async () => {
  await atStep2();
  const r = await w.run(['abort', '--wave', 'prod', '--pr']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--wave prod: rollgen.yaml has no such wave; its waves: all');
  expect(r.calls).toEqual([]);
  const preview = await w.run(['abort', '--wave', 'all', '--pr', '--dry-run', '--offline']);
  expect(preview.code).toBe(0);
  expect(preview.stdout).toContain('== wave:all: rollgen/wave_3aall/abort ==\ntitle: rollgen(wave all): abort');
  expect(preview.stdout.match(/^== /gm)).toHaveLength(3);
});

test('local git mode: abort --wave --commit is one commit for the wave, a rerun commits nothing, retry --wave --commit one more', async () => {
  w = fleetFlowWorld((y) => y.replace(/^waves:[\s\S]*/m, ONE_WAVE));
  const commit = async (args: string[]) => {
    const before = head();
    const r = await w.run(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return { r, commits: Number(git(w.repo, ['rev-list', '--count', `${before}..HEAD`]).trim()) };
  };
  for (let i = 0; i < 10 && (await commit(['advance', '--commit'])).commits > 0; i++);
  bumpFleetImage(w, '2.54');
  expect((await commit(['advance', '--commit'])).commits).toBe(1); // step 1 of every target
  const touched = () => git(w.repo, ['show', '--name-only', '--format=', 'HEAD']).trim().split('\n');
  const outputsIn = (files: string[]) =>
    Object.entries(OUTPUTS)
      .filter(([, out]) => files.some((f) => f.startsWith(out + '/')))
      .map(([t]) => t);
  const abort = await commit(['abort', '--wave', 'all', '--commit']);
  expect(abort.commits).toBe(1);
  expect(outputsIn(touched())).toEqual(['staging', 'prod-eu', 'prod-us']);
  expect(git(w.repo, ['log', '-1', '--format=%s']).trim()).toMatch(/^rollgen\(wave all\): web-staging abort/);
  for (const t of ['staging', 'prod-eu', 'prod-us'] as const) expect(statusOf(t)).toMatch(/phase: Aborted/);
  expect((await w.run(['status'])).stdout).toContain('`rollgen retry --wave all --commit` (one commit for the wave)');
  const rerun = await commit(['abort', '--wave', 'all', '--commit']);
  expect(rerun.commits).toBe(0);
  expect(rerun.r.stdout).toContain('nothing to abort: web-prod-us/web is aborted');
  const retry = await commit(['retry', '--wave', 'all', '--commit']);
  expect(retry.commits).toBe(1);
  expect(outputsIn(touched())).toEqual(['staging', 'prod-eu', 'prod-us']);
  for (const t of ['staging', 'prod-eu', 'prod-us'] as const) expect(statusOf(t)).toMatch(/phase: Progressing/);
  // Per target as before: one commit for that target alone.
  const one = await commit(['abort', 'web', '--target', 'prod-eu', '--commit']);
  expect(one.commits).toBe(1);
  expect(outputsIn(touched())).toEqual(['prod-eu']);
});

test('a wave held by its step PR a person closed: the hold names retry|abort --wave; retry --wave opens that step again', async () => {
  await atStep2();
  const step2 = w.openPr('rollgen/wave_3aall/step-2');
  w.fake.personClose(step2.number);
  expect((await w.pr()).stdout).toContain(
    `wave:all: held: #${step2.number} was closed without merging; push a new revision, or run rollgen retry|abort --wave all --pr`,
  );
  expect((await w.pr()).writes).toEqual([]);
  const retry = await w.run(['retry', '--wave', 'all', '--pr']);
  expect(retry.code).toBe(0);
  const again = w.openPr('rollgen/wave_3aall/step-2');
  expect(again.number).toBeGreaterThan(step2.number);
  expect(touchedBy(w, again.number)).toEqual(['staging', 'prod-eu', 'prod-us']);
  const { merged } = await driveFleet(w);
  expect(merged.map((m) => m.branch)[0]).toBe('rollgen/wave_3aall/step-2');
  for (const t of ['staging', 'prod-eu', 'prod-us'] as const) expect(statusOf(t)).toMatch(/phase: Healthy/);
});
