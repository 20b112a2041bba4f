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
 * `promote --wave W` (docs/fleet.md, issue 24): ONE PR (`--pr`) or one commit (`--commit`) for the
 * whole wave, as `abort|retry --wave` are, with the per-target promote's semantics: each target
 * with a canary live moves one step past its gate (or, `--full`, to promotion), the PR is a
 * person's (rollgen:manual), the wave's open step PR on the same branch is taken over, one on
 * another branch superseded.
 */
jest.setTimeout(600_000);

let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const ALL = ['staging', 'prod-eu', 'prod-us'] as const;

const statusOf = (t: FleetTarget) => statusOfTarget(w, t);
const created = (r: { writes: readonly { op: string }[] }) => r.writes.filter((c) => c.op === 'createPull');

/** The fleet adopted, a new image in `targets`, the wave's step 1 merged and its step-2 PR open. */
async function atStep2(targets?: Parameters<typeof oneWaveAtStep2>[0]): Promise<void> {
  w = await oneWaveAtStep2(targets);
}

test('promote --wave --full --pr: one PR for a 3-target wave (was 3), the step PR superseded; a rerun changes nothing; after the merge none is left to promote, refused as per target', async () => {
  await atStep2();
  const step2 = w.openPr('rollgen/wave_3aall/step-2');
  const preview = await w.run(['promote', '--wave', 'all', '--full', '--pr', '--dry-run', '--offline']);
  expect(preview.code).toBe(0);
  expect(preview.stdout).toContain('== wave:all: rollgen/wave_3aall/promote ==\ntitle: rollgen(wave all): promote');
  const r = await w.run(['promote', '--wave', 'all', '--full', '--pr']);
  expect(r.code).toBe(0);
  expect(created(r)).toHaveLength(1);
  const promote = w.openPr('rollgen/wave_3aall/promote');
  expect(touchedBy(w, promote.number)).toEqual([...ALL]);
  expect(promote.title).toBe('rollgen(wave all): promote');
  expect(promote.labels).toContain('rollgen:manual');
  for (const t of ALL) expect(promote.body).toMatch(new RegExp(`\\| web-${t} \\| ${t} \\| promote \\| manual \\|`));
  expect(parseMarker(promote.body)).toMatchObject({ app: 'wave:all', target: 'promote', origin: 'command' });
  // The step PR it passes is closed as superseded, as a per-target promote --full closes the app's step PR.
  expect(w.fake.pull(step2.number)).toMatchObject({ state: 'closed', merged: false });
  expect(r.stdout).toContain(`close #${step2.number} (superseded by #${promote.number})`);
  expect(w.fake.open().map((p) => p.branch)).toEqual(['rollgen/wave_3aall/promote']);
  const again = await w.run(['promote', '--wave', 'all', '--full', '--pr']);
  expect(again.code).toBe(0);
  expect(again.writes).toEqual([]);
  expect(again.calls.map((c) => c.op)).toEqual(['listPulls']);
  const waits = await w.pr();
  expect(waits.writes).toEqual([]);
  expect(waits.stdout).toContain(
    `wave:all: wave all waits for a person to merge or close #${promote.number} (promote of wave all)`,
  );
  w.merge(promote.number);
  for (const t of ALL) expect(statusOf(t)).toMatch(/phase: Promoting/);
  await driveFleet(w);
  for (const t of ALL) expect(statusOf(t)).toMatch(/phase: Healthy/);
  // Nothing left to promote: refused as the per-target command is, each target's reason given, nothing written.
  const perTarget = await w.run(['promote', 'web', '--target', 'staging', '--pr']);
  const none = await w.run(['promote', '--wave', 'all', '--pr']);
  expect(perTarget.code).not.toBe(0);
  expect(none.code).toBe(perTarget.code);
  expect(none.writes).toEqual([]);
  expect(none.stderr).toContain('wave all: no target to promote');
  for (const t of ALL) expect(none.stderr).toContain(`nothing to promote: web-${t}/web is healthy`);
});

test('promote --wave --pr takes over the open wave step PR on its branch (as per-target promote does) for a person; untouched targets named; --merge lands it', async () => {
  await atStep2(['staging', 'prod-eu']); // prod-us runs its source fully promoted: nothing to promote there
  const step2 = w.openPr('rollgen/wave_3aall/step-2');
  expect(touchedBy(w, step2.number)).toEqual(['staging', 'prod-eu']);
  const r = await w.run(['promote', '--wave', 'all', '--pr']);
  expect(r.code).toBe(0);
  expect(created(r)).toEqual([]);
  expect(w.fake.open().map((p) => p.number)).toEqual([step2.number]);
  const taken = w.fake.pull(step2.number);
  expect(taken.labels).toContain('rollgen:manual');
  expect(parseMarker(taken.body)).toMatchObject({ app: 'wave:all', target: 'step-2', origin: 'command' });
  expect(taken.body).toMatch(/\| web-staging \| staging \| step 2 \| manual \|/);
  expect(taken.body).toMatch(/\| web-prod-eu \| prod-eu \| step 2 \| manual \|/);
  expect(taken.body).toMatch(/Not touched:\n\n- nothing to promote: web-prod-us\/web is healthy/);
  // The flow leaves it to a person now, as it does a per-target promote PR.
  const waits = await w.pr();
  expect(waits.writes).toEqual([]);
  expect(waits.stdout).toContain(
    `wave:all: wave all waits for a person to merge or close #${step2.number} (step-2 of wave all)`,
  );
  const merged = await w.run(['promote', '--wave', 'all', '--pr', '--merge']);
  expect(merged.code).toBe(0);
  expect(merged.stdout).toContain(`wave:all: merged #${step2.number} (--merge)`);
  for (const t of ['staging', 'prod-eu'] as const) expect(statusOf(t)).toMatch(/step: 2\b/);
  expect(statusOf('prod-us')).toMatch(/phase: Healthy/);
});

test('local git mode: promote --wave --commit is one commit for the wave (was 3), --full one more; with none to promote it commits nothing, as per target', async () => {
  w = fleetFlowWorld((y) => y.replace(/^waves:[\s\S]*/m, ONE_WAVE));
  const commit = async (args: string[]) => {
    const before = git(w.repo, ['rev-parse', 'HEAD']).trim();
    const r = await w.run(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return { r, commits: Number(git(w.repo, ['rev-list', '--count', `${before}..HEAD`]).trim()) };
  };
  const settle = async () => {
    for (let i = 0; i < 10 && (await commit(['advance', '--commit'])).commits > 0; i++);
  };
  const touched = () => {
    const files = git(w.repo, ['show', '--name-only', '--format=', 'HEAD']).trim().split('\n');
    return ALL.filter((t) => files.some((f) => f.startsWith(OUTPUTS[t] + '/')));
  };
  await settle();
  bumpFleetImage(w, '2.54');
  expect((await commit(['advance', '--commit'])).commits).toBe(1); // step 1 of every target
  const step = await commit(['promote', '--wave', 'all', '--commit']);
  expect(step.commits).toBe(1);
  expect(touched()).toEqual([...ALL]);
  expect(git(w.repo, ['log', '-1', '--format=%s']).trim()).toMatch(/^rollgen\(wave all\): web-staging step 2/);
  for (const t of ALL) expect(statusOf(t)).toMatch(/step: 2\b/);
  const full = await commit(['promote', '--wave', 'all', '--full', '--commit']);
  expect(full.commits).toBe(1);
  expect(touched()).toEqual([...ALL]);
  for (const t of ALL) expect(statusOf(t)).toMatch(/phase: Promoting/);
  await settle();
  const perTarget = await commit(['promote', 'web', '--target', 'staging', '--commit']);
  const none = await commit(['promote', '--wave', 'all', '--commit']);
  expect([perTarget.commits, none.commits]).toEqual([0, 0]);
  for (const t of ALL) expect(none.r.stdout).toContain(`nothing to promote: web-${t}/web is healthy`);
});
