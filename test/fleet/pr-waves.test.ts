import * as fs from 'fs';
import * as path from 'path';
import { parseMarker } from '../../src/flow/marker';
import { FlowWorld } from '../helpers/flow-world';
import { OUTPUTS, bumpFleetImage, driveFleet, fleetFlowWorld, imagesOf, touchedBy } from '../helpers/fleet-flow';
import { EXAMPLE, commitAll, git } from '../helpers/git-repo';

/**
 * `rollgen pr` with waves (docs/fleet.md) over examples/fleet against the fake GitHub: each wave step
 * is ONE PR touching every moving target's output; merging it moves them all; waves follow each
 * other; a new image mid-fleet starts over at wave 1; a closed wave PR holds; a bake holds the next
 * wave; a rerun changes nothing.
 */
jest.setTimeout(600_000);

let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const statusOf = (t: keyof typeof OUTPUTS) =>
  fs.readFileSync(path.join(w.repo, OUTPUTS[t], 'rollgen-status.yaml'), 'utf8');
const waveOf = (branch: string) => /^rollgen\/wave_3a([a-z0-9-]+)\//.exec(branch)?.[1];

test('a 3-wave fleet completes wave by wave through scheduled rollgen pr runs, one PR per wave step', async () => {
  w = fleetFlowWorld();
  await driveFleet(w); // every target adopted, wave by wave
  bumpFleetImage(w, '2.54');
  const dry = await w.pr('--dry-run');
  expect(dry.writes).toEqual([]);
  expect(dry.stdout).toContain(
    'wave:staging: would open a PR from rollgen/wave_3astaging/step-1 into main: "rollgen(wave staging): step 1 of 3"',
  );
  expect(dry.stdout).toContain('wave prod-eu: web-prod-eu wait: wave staging (wave 1) has not completed');
  const images: string[][][] = [];
  const { merged } = await driveFleet(w, {
    after: () => void images.push([imagesOf(w, 'staging'), imagesOf(w, 'prod-eu'), imagesOf(w, 'prod-us')]),
  });
  // (waves x steps) PRs: 5 per wave (3 steps, promote, clean-up), each touching its own wave's output only.
  const steps = ['step-1', 'step-2', 'step-3', 'promote', 'cleanup'];
  expect(merged.map((m) => m.branch)).toEqual(
    ['staging', 'prod-eu', 'prod-us'].flatMap((wave) => steps.map((s) => `rollgen/wave_3a${wave}/${s}`)),
  );
  expect(merged.map((m) => m.targets)).toEqual(merged.map((m) => [waveOf(m.branch)]));
  expect(merged[1].title).toBe('rollgen(wave staging): step 2 of 3');
  // While staging rolls, prod-eu and prod-us keep the old version.
  const whileStaging = images.slice(
    0,
    images.findIndex((i) => i[1].includes('2.54')),
  );
  expect(whileStaging.length).toBeGreaterThan(3);
  for (const [, eu, us] of whileStaging) expect([eu, us]).toEqual([['2.53'], ['2.53']]);
  expect(images.at(-1)).toEqual([['2.54'], ['2.54'], ['2.54']]);
  for (const t of ['staging', 'prod-eu', 'prod-us'] as const) expect(statusOf(t)).toMatch(/phase: Healthy/);
  // Settled: a rerun writes nothing.
  expect((await w.pr()).writes).toEqual([]);
});

test('a wave of two targets moves in one PR touching both; a rerun finds it and changes nothing, at no write', async () => {
  w = fleetFlowWorld((y) => y.replace(/^waves:[\s\S]*/m, twoWaves('')));
  await driveFleet(w);
  bumpFleetImage(w, '2.54');
  await driveFleet(w, { after: () => w.fake.open().some((p) => p.branch === 'rollgen/wave_3aprod/step-1') });
  const step1 = w.fake.open().find((p) => p.branch === 'rollgen/wave_3aprod/step-1')!;
  expect(touchedBy(w, step1.number)).toEqual(['prod-eu', 'prod-us']);
  expect(step1.body).toMatch(/\| web-prod-eu \| prod-eu \| step 1 \|/);
  expect(step1.body).toMatch(/\| web-prod-us \| prod-us \| step 1 \|/);
  expect(parseMarker(step1.body)).toMatchObject({ app: 'wave:prod', target: 'step-1' });
  // status --pr: the matrix, each wave's PR in its last row, and what moves the fleet on.
  const status = await w.run(['status', '--pr']);
  expect(status.stdout).toMatch(/^web-prod-eu +- +Healthy\* *$/m);
  expect(status.stdout).toMatch(new RegExp(`^PR +- +#${step1.number} step 1$`, 'm'));
  expect(status.stdout).toContain(`next: #${step1.number} (step 1) moves wave prod one step: merge it`);
  const again = await w.pr();
  expect(again.stdout).toMatch(new RegExp(`^PR +- +#${step1.number} waits$`, 'm'));
  expect(again.writes).toEqual([]);
  expect(again.calls.map((c) => c.op)).toEqual(['listPulls']);
  expect(again.stdout).toMatch(/wave:prod: manual gate: a person merges #\d+/);
  expect(w.fake.open()).toHaveLength(1);
  // abort per target (as before; `--wave` is one PR, test/fleet/wave-commands.test.ts): the wave waits for them.
  w.merge(step1.number);
  await w.pr();
  w.openPr('rollgen/wave_3aprod/step-2');
  for (const t of ['prod-eu', 'prod-us']) expect((await w.run(['abort', 'web', '--target', t, '--pr'])).code).toBe(0);
  const aborts = ['rollgen/web-prod-eu/abort', 'rollgen/web-prod-us/abort'].map((b) => w.openPr(b));
  const held = await w.pr();
  expect(held.writes).toEqual([]);
  expect(held.stdout).toMatch(
    /wave:prod: wave prod waits for a person to merge or close #\d+ \(abort of web-prod-eu\), #\d+ \(abort of web-prod-us\)/,
  );
  for (const a of aborts) w.merge(a.number);
  // The wave's step PR no longer applies: closed; then the wave says why it waits.
  expect((await w.pr()).stdout).toMatch(/wave:prod: close #\d+ \(obsolete\)/);
  expect(w.fake.open()).toEqual([]);
  expect((await w.pr()).stdout).toContain(
    'wave:prod: wave prod failed (web-prod-eu, web-prod-us aborted): fix the source, or `rollgen retry --wave prod --pr` (one PR for the wave); later waves wait',
  );
});

/** staging+prod-eu (region eu) first, then prod-us: a failure in wave 1 must keep wave 2 from starting. */
function euFirst(onFailure: string): string {
  return `waves:
  - name: eu
    select: {labels: {region: eu}}
    onFailure: ${onFailure}
  - name: us
    select: {targets: [prod-us]}
`;
}

function twoWaves(extra: string): string {
  return `waves:
  - name: staging
    select: {labels: {env: staging}}
  - name: prod
    select: {labels: {env: prod}}
${extra}`;
}

/** The fleet adopted, a new image, wave eu at step 2 with its PR open; Flux posts each target's health on main's head. */
async function euAtStep2(onFailure: string, failing: Set<string>): Promise<void> {
  w = fleetFlowWorld((y) =>
    y
      .replace(/^waves:[\s\S]*/m, euFirst(onFailure))
      .replace('    output: clusters/{target}/{name}\n', "$&    health: {statuses: ['flux/{target}']}\n"),
  );
  const post = () => {
    const head = git(w.repo, ['rev-parse', 'HEAD']).trim();
    for (const t of Object.keys(OUTPUTS)) w.fake.postStatus(head, `flux/${t}`, failing.has(t) ? 'failure' : 'success');
  };
  await driveFleet(w, { before: post });
  bumpFleetImage(w, '2.54');
  await driveFleet(w, {
    before: post,
    after: () => w.fake.open().some((p) => p.branch === 'rollgen/wave_3aeu/step-2'),
  });
}

test('health: one commit-status read answers every target of the wave; onFailure: target aborts the failing target only, later waves never start', async () => {
  const failing = new Set<string>();
  await euAtStep2('target', failing);
  const head = git(w.repo, ['rev-parse', 'HEAD']).trim();
  // Both targets' health from one request for the commit carrying the step: the step merges.
  const healthy = await w.pr();
  expect(healthy.calls.map((c) => c.op)).toEqual(['listPulls', 'commitStatuses', 'checks', 'mergePull']);
  expect(healthy.calls[1].args).toEqual([head]);
  // Flux reports prod-eu failing on the commit that carries step 2.
  failing.add('prod-eu');
  const step2 = git(w.repo, ['rev-parse', 'HEAD']).trim();
  w.fake.postStatus(step2, 'flux/prod-eu', 'failure', 'Deployment web: progress deadline exceeded');
  const r = await w.pr();
  expect(r.code).toBe(0);
  const abort = w.fake.pulls.find((p) => p.branch === 'rollgen/wave_3aeu/abort')!;
  expect(abort.merged).toBe(true);
  expect(touchedBy(w, abort.number)).toEqual(['prod-eu']);
  expect(abort.body).toContain('web-prod-eu: status flux/prod-eu is failure');
  expect(w.fake.open()).toEqual([]);
  expect(statusOf('prod-eu')).toMatch(/phase: Aborted/);
  // staging goes on and completes; prod-us never starts.
  failing.clear();
  const rest = await driveFleet(w, {
    before: () => {
      const h = git(w.repo, ['rev-parse', 'HEAD']).trim();
      for (const t of ['staging', 'prod-us']) w.fake.postStatus(h, `flux/${t}`, 'success');
    },
  });
  expect(rest.merged.flatMap((m) => m.targets)).not.toContain('prod-us');
  expect(rest.merged.flatMap((m) => m.targets)).not.toContain('prod-eu');
  expect(statusOf('staging')).toMatch(/phase: Healthy/);
  expect(imagesOf(w, 'staging')).toEqual(['2.54']);
  expect(imagesOf(w, 'prod-us')).toEqual(['2.53']);
  expect(rest.runs.at(-1)!.stdout).toContain('wave us: web-prod-us wait: wave eu (wave 1) failed: web-prod-eu aborted');
});

test('onFailure: wave aborts every target of the wave in one abort PR', async () => {
  const failing = new Set<string>();
  await euAtStep2('wave', failing);
  const head = git(w.repo, ['rev-parse', 'HEAD']).trim();
  failing.add('staging');
  w.fake.postStatus(head, 'flux/staging', 'failure');
  expect((await w.pr()).code).toBe(0);
  const abort = w.fake.pulls.find((p) => p.branch === 'rollgen/wave_3aeu/abort')!;
  expect(abort.merged).toBe(true);
  expect(touchedBy(w, abort.number)).toEqual(['staging', 'prod-eu']);
  expect(statusOf('staging')).toMatch(/phase: Aborted/);
  expect(statusOf('prod-eu')).toMatch(/phase: Aborted/);
  const next = await w.pr();
  expect(next.writes).toEqual([]);
  expect(imagesOf(w, 'prod-us')).toEqual(['2.53']);
});

test('a new image in the middle of the fleet starts over at wave 1; the later wave waits as it was, its PR closed', async () => {
  w = fleetFlowWorld();
  await driveFleet(w);
  bumpFleetImage(w, '2.54');
  await driveFleet(w, { after: () => w.fake.open().some((p) => p.branch === 'rollgen/wave_3aprod-eu/step-2') });
  const prodEu = statusOf('prod-eu');
  const prodUs = statusOf('prod-us');
  bumpFleetImage(w, '2.55');
  const r = await w.pr();
  expect(r.code).toBe(0);
  expect(w.fake.open().map((p) => p.branch)).toEqual(['rollgen/wave_3astaging/step-1']);
  expect(r.stdout).toContain('wave prod-eu: web-prod-eu wait: wave staging (wave 1) has not completed');
  expect(r.stdout).toMatch(/wave:prod-eu: close #\d+ \(obsolete\)/);
  expect(statusOf('prod-eu')).toBe(prodEu);
  expect(statusOf('prod-us')).toBe(prodUs);
});

test('a person closing a wave PR holds the wave; a bake holds the next wave after the last merge', async () => {
  w = fleetFlowWorld();
  await driveFleet(w);
  bumpFleetImage(w, '2.54');
  await driveFleet(w, { after: () => w.fake.open().some((p) => p.branch === 'rollgen/wave_3astaging/step-2') });
  const step2 = w.fake.open()[0];
  w.fake.personClose(step2.number);
  let r = await w.pr();
  expect(r.stdout).toMatch(/wave:staging: held: #\d+ was closed without merging/);
  expect(w.fake.open()).toEqual([]);
  r = await w.pr();
  expect(r.writes).toEqual([]);
  // A person lets it go on by merging the step by hand; prod-eu settles; prod-us waits for its 30m bake.
  w.fake.pull(step2.number).state = 'open';
  w.merge(step2.number);
  await driveFleet(w, {
    after: () =>
      statusOf('prod-eu').includes('phase: Healthy') &&
      imagesOf(w, 'prod-eu')[0] === '2.54' &&
      w.fake.open().length === 0,
  });
  const landed = new Date(git(w.repo, ['log', '-1', '--format=%cI']).trim());
  w.now = new Date(landed.getTime() + 10 * 60_000);
  r = await w.pr();
  expect(r.writes).toEqual([]);
  const due = new Date(landed.getTime() + 1800_000).toISOString();
  expect(r.stdout).toContain(
    `wave:prod-us: wave prod-us waits for wave prod-eu to bake 1800s after its last merge: until ${due}`,
  );
  w.now = new Date(landed.getTime() + 1801_000);
  await w.pr();
  expect(w.fake.open().map((p) => p.branch)).toEqual(['rollgen/wave_3aprod-us/step-1']);
});

test('apps in no wave keep their own PRs in the same run as the wave step PR', async () => {
  w = fleetFlowWorld((y) => y.replace('apps:\n', 'apps:\n  - source: apps/echo\n    output: deploy/echo\n'));
  fs.cpSync(EXAMPLE, path.join(w.repo, 'apps', 'echo'), { recursive: true });
  commitAll(w.repo, 'an app outside the waves', w.now);
  const r = await w.pr();
  expect(r.code).toBe(0);
  expect(
    w.fake
      .open()
      .map((p) => p.branch)
      .sort(),
  ).toEqual(['rollgen/echo/adopt', 'rollgen/wave_3astaging/adopt']);
  expect(touchedBy(w, w.openPr('rollgen/wave_3astaging/adopt').number)).toEqual(['staging']);
});
