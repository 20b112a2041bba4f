import * as fs from 'fs';
import { runCli } from '../helpers/cli';
import { FlowWorld } from '../helpers/flow-world';
import { type FleetTarget, OUTPUTS, bumpFleetImage, driveFleet, fleetFlowWorld, imagesOf } from '../helpers/fleet-flow';
import { git } from '../helpers/git-repo';

/**
 * `steps:` of a wave other than all (docs/fleet.md): prod-eu runs steps 1 and 3 of the rollout,
 * prod-us promotes straight away the revision the earlier waves proved; in the PR flow and in local
 * git mode alike.
 */
jest.setTimeout(600_000);

const SUBSETS = (y: string) =>
  y
    .replace('    bake: 30m\n', '    bake: 30m\n    steps: [1, 3]\n')
    .replace('    onFailure: wave\n', '    onFailure: wave\n    steps: promote\n');

let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

test('rollgen pr: a wave runs the steps it lists, or promotes straight away', async () => {
  w = fleetFlowWorld(SUBSETS);
  await driveFleet(w);
  bumpFleetImage(w, '2.54');
  const { merged } = await driveFleet(w);
  expect(merged.map((m) => m.branch.replace('rollgen/wave_3a', ''))).toEqual([
    'staging/step-1',
    'staging/step-2',
    'staging/step-3',
    'staging/promote',
    'staging/cleanup',
    'prod-eu/step-1',
    'prod-eu/step-3',
    'prod-eu/promote',
    'prod-eu/cleanup',
    'prod-us/promote',
    'prod-us/cleanup',
  ]);
  expect(merged.find((m) => m.branch.endsWith('prod-eu/step-3'))!.title).toBe('rollgen(wave prod-eu): step 3 of 3');
  for (const t of ['staging', 'prod-eu', 'prod-us'] as const) expect(imagesOf(w, t)).toEqual(['2.54']);
});

test('advance --commit: the same steps, one commit per wave step', async () => {
  w = fleetFlowWorld(SUBSETS);
  const later = () => new Date(Date.now() + 7200_000); // local commits carry the real clock: past every bake
  const advanceAll = async () => {
    const subjects: string[] = [];
    for (let i = 0; i < 40; i++) {
      const head = git(w.repo, ['rev-parse', 'HEAD']);
      const r = await runCli(['advance', '--commit'], w.repo, '', { now: later });
      expect(r.stderr).toBe('');
      if (git(w.repo, ['rev-parse', 'HEAD']) === head) return subjects;
      subjects.push(git(w.repo, ['log', '-1', '--format=%s']).trim());
    }
    throw new Error('never settled');
  };
  await advanceAll();
  bumpFleetImage(w, '2.54');
  const subjects = await advanceAll();
  const eu = subjects.filter((s) => s.startsWith('rollgen(wave prod-eu)'));
  const us = subjects.filter((s) => s.startsWith('rollgen(wave prod-us)'));
  const moves = (list: string[]) =>
    list.map((s) => s.replace(/^.*: web-prod-\w+ /, '').replace(/ ?\(?[0-9a-f]{10}\)?/g, ''));
  expect(moves(eu)).toEqual([
    'start: step 1 of 3',
    'step 3 of 3',
    'promote to stable',
    'clean up after: canary removed',
  ]);
  expect(moves(us)).toEqual(['promote to stable', 'clean up after: canary removed']);
  expect(imagesOf(w, 'prod-us')).toEqual(['2.54']);
});

test('promote of a target or a wave goes to the next step its wave runs (step 1 -> 3 under steps: [1, 3]), as advance does', async () => {
  w = fleetFlowWorld(SUBSETS);
  const later = () => new Date(Date.now() + 7200_000);
  const cli = (args: string[]) => runCli(args, w.repo, '', { now: later });
  const subject = () => git(w.repo, ['log', '-1', '--format=%s']).trim();
  const advanceUntil = async (done: (s: string) => boolean) => {
    for (let i = 0; i < 40; i++) {
      const head = git(w.repo, ['rev-parse', 'HEAD']);
      expect((await cli(['advance', '--commit'])).stderr).toBe('');
      if (done(subject())) return;
      if (git(w.repo, ['rev-parse', 'HEAD']) === head) throw new Error('settled before it');
    }
  };
  const statusOf = (t: FleetTarget) => fs.readFileSync(`${w.repo}/${OUTPUTS[t]}/rollgen-status.yaml`, 'utf8');
  const stepOf = (t: FleetTarget) => /step: (\d+)/.exec(statusOf(t))?.[1];
  await advanceUntil(() => false).catch(() => undefined); // adopted, settled
  bumpFleetImage(w, '2.54');
  await advanceUntil((s) => s.startsWith('rollgen(wave prod-eu)') && s.includes('step 1 of 3'));
  expect(stepOf('prod-eu')).toBe('1');
  const r = await cli(['promote', 'web', '--target', 'prod-eu', '--commit']);
  expect(r.stderr).toBe('');
  expect(stepOf('prod-eu')).toBe('3');
  const wave = await cli(['promote', '--wave', 'prod-eu', '--commit']);
  expect(wave.stderr).toBe('');
  expect(statusOf('prod-eu')).toMatch(/phase: Promoting/);
});
