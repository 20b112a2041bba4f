import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { fleetRepo } from '../helpers/fleet-repo';
import { commitAll, git } from '../helpers/git-repo';

/**
 * Local git mode over examples/fleet (docs/fleet.md): each `advance --commit` moves the live wave
 * one step in one commit; later waves keep the old version until the earlier ones settle; a new
 * image mid-fleet starts over at wave 1; an aborted target holds the waves after it.
 */
jest.setTimeout(300_000);

const T0 = new Date('2026-01-01T00:00:00Z');
const LATER = () => new Date(Date.now() + 3600_000); // past every bake of the example (30m)
const OUTPUTS = {
  staging: 'clusters/staging/web',
  'prod-eu': 'clusters/prod-eu/web',
  'prod-us': 'clusters/prod-us/web',
};

/**
 * examples/fleet in git, each overlay built once by kustomize into a plain directory (the sources
 * the targets read; a run then costs no kustomize build), with pauses of 0s so advance passes them.
 */
function fleetGitRepo(): string {
  const dir = fleetRepo((y) => y.replace('source: web/overlays/{target}', 'source: web/built/{target}'));
  const rollout = path.join(dir, 'web', 'base', 'rollout.yaml');
  fs.writeFileSync(rollout, fs.readFileSync(rollout, 'utf8').replace(/pause: \{\}/g, 'pause: {duration: 0}'));
  for (const t of Object.keys(OUTPUTS)) {
    const built = execFileSync('kubectl', ['kustomize', path.join(dir, 'web', 'overlays', t)], { encoding: 'utf8' });
    fs.mkdirSync(path.join(dir, 'web', 'built', t), { recursive: true });
    fs.writeFileSync(path.join(dir, 'web', 'built', t, 'all.yaml'), built);
  }
  git(dir, ['init', '--quiet', '--initial-branch=main']);
  commitAll(dir, 'initial', T0);
  return dir;
}

const advance = (dir: string, now = LATER) => runCli(['advance', '--commit'], dir, '', { now });

/** The targets whose output the last commit touched. */
function touched(dir: string): string[] {
  const files = git(dir, ['show', '--name-only', '--format=', 'HEAD']).trim().split('\n');
  return Object.entries(OUTPUTS)
    .filter(([, out]) => files.some((f) => f.startsWith(out + '/')))
    .map(([t]) => t);
}

const imageIn = (dir: string, target: keyof typeof OUTPUTS) => {
  const out = path.join(dir, OUTPUTS[target]);
  if (!fs.existsSync(out)) return [];
  const text = fs
    .readdirSync(out)
    .map((f) => fs.readFileSync(path.join(out, f), 'utf8'))
    .join('\n');
  return [...new Set([...text.matchAll(/image: \S+:(\S+)/g)].map((m) => m[1]))].sort();
};

/** Advances until nothing moves; returns the targets each commit touched, in order. */
async function advanceUntilSettled(dir: string, onCommit?: () => void): Promise<string[][]> {
  const commits: string[][] = [];
  for (let i = 0; i < 40; i++) {
    const head = git(dir, ['rev-parse', 'HEAD']);
    const r = await advance(dir);
    expect(r.stderr).toBe('');
    if (git(dir, ['rev-parse', 'HEAD']) === head) return commits;
    commits.push(touched(dir));
    onCommit?.();
  }
  throw new Error('the fleet never settled');
}

function bumpImage(dir: string, tag: string): void {
  for (const t of Object.keys(OUTPUTS)) {
    const file = path.join(dir, 'web', 'built', t, 'all.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/agnhost:\S+/, `agnhost:${tag}`));
  }
  commitAll(dir, `web ${tag}`, T0);
}

const waveOrder = (commits: string[][]) => [...new Set(commits.map((c) => c.join(',')))];

test('a new image rolls through the waves in order, one commit per wave step, later waves untouched', async () => {
  const dir = fleetGitRepo();
  await advanceUntilSettled(dir); // adopt every target, wave by wave
  bumpImage(dir, '2.54');
  const seen: Record<string, string[]>[] = [];
  const commits = await advanceUntilSettled(dir, () =>
    seen.push({
      staging: imageIn(dir, 'staging'),
      'prod-eu': imageIn(dir, 'prod-eu'),
      'prod-us': imageIn(dir, 'prod-us'),
    }),
  );
  // Every commit touches the outputs of one wave only, and the waves follow each other.
  expect(commits.every((c) => c.length === 1)).toBe(true);
  expect(waveOrder(commits)).toEqual(['staging', 'prod-eu', 'prod-us']);
  // While staging rolls, prod-eu and prod-us keep the old version, untouched.
  const stagingMoves = commits.filter((c) => c[0] === 'staging').length;
  for (const s of seen.slice(0, stagingMoves)) {
    expect(s['prod-eu']).toEqual(['2.53']);
    expect(s['prod-us']).toEqual(['2.53']);
  }
  expect(seen.at(-1)).toEqual({ staging: ['2.54'], 'prod-eu': ['2.54'], 'prod-us': ['2.54'] });
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a new image in the middle of the fleet starts over at wave 1; the later wave waits as it was', async () => {
  const dir = fleetGitRepo();
  await advanceUntilSettled(dir);
  bumpImage(dir, '2.54');
  // Until prod-eu has started: staging settles first.
  for (let i = 0; i < 20 && !touched(dir).includes('prod-eu'); i++) await advance(dir);
  expect(touched(dir)).toEqual(['prod-eu']);
  const prodEu = fs.readFileSync(path.join(dir, OUTPUTS['prod-eu'], 'rollgen-status.yaml'), 'utf8');
  bumpImage(dir, '2.55');
  const r = await advance(dir);
  expect(r.code).toBe(0);
  expect(touched(dir)).toEqual(['staging']);
  expect(r.stdout).toContain('web-prod-eu: waits in wave prod-eu: wave staging (wave 1) has not completed');
  expect(fs.readFileSync(path.join(dir, OUTPUTS['prod-eu'], 'rollgen-status.yaml'), 'utf8')).toBe(prodEu);
  // status: the matrix, targets down and waves across, and the command that moves the fleet on.
  const status = await runCli(['status'], dir);
  const matrix = status.stdout.slice(status.stdout.indexOf('FLEET'));
  expect(matrix.split('\n')[0]).toMatch(/^FLEET\s+1 staging\s+2 prod-eu\s+3 prod-us$/);
  expect(matrix).toMatch(/^web-staging\s+Progressing 1\/3\s+-\s+-$/m);
  expect(matrix).toMatch(/^web-prod-eu\s+-\s+Progressing 1\/3\*\s+-$/m);
  expect(matrix).toMatch(/^web-prod-us\s+-\s+-\s+Healthy\*$/m);
  expect(matrix).toContain('next: `rollgen advance --commit` moves wave staging one step');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an aborted target holds the waves after it; the bake of a wave holds the next one', async () => {
  const dir = fleetGitRepo();
  await advanceUntilSettled(dir);
  bumpImage(dir, '2.54');
  await advance(dir); // staging starts
  expect(touched(dir)).toEqual(['staging']);
  const abort = await runCli(['abort', 'web', '--target', 'staging', '--commit'], dir);
  expect(abort.code).toBe(0);
  const head = git(dir, ['rev-parse', 'HEAD']);
  const r = await advance(dir);
  expect(r.code).toBe(0);
  expect(git(dir, ['rev-parse', 'HEAD'])).toBe(head);
  expect(r.stdout).toContain('web-prod-eu: waits in wave prod-eu: wave staging (wave 1) failed: web-staging aborted');
  expect((await runCli(['status'], dir)).stdout).toContain(
    'next: wave staging failed (web-staging aborted): fix the source, or `rollgen retry --wave staging --commit` (one commit for the wave); later waves wait',
  );
  // retry, then staging and prod-eu settle; prod-us waits for prod-eu's 30m bake.
  expect((await runCli(['retry', 'web', '--target', 'staging', '--commit'], dir)).code).toBe(0);
  for (let i = 0; i < 20; i++) {
    const step = await advance(dir, () => new Date());
    if (step.code !== 0) {
      expect(step.stderr).toMatch(/wave prod-us: wave prod-eu bakes 1800s after its last commit: \d+s left/);
      expect(imageIn(dir, 'prod-eu')).toEqual(['2.54']);
      expect(imageIn(dir, 'prod-us')).toEqual(['2.53']);
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    }
  }
  throw new Error('the bake never held prod-us');
});

test('advance without --commit writes the live wave only; rollgen pr --dry-run --offline previews the wave step PR', async () => {
  const dir = fleetGitRepo();
  const r = await runCli(['advance', 'web', '--target', 'prod-us'], dir);
  expect(r.code).toBe(0);
  expect(fs.existsSync(path.join(dir, OUTPUTS.staging))).toBe(true);
  expect(fs.existsSync(path.join(dir, OUTPUTS['prod-eu']))).toBe(false);
  expect(fs.existsSync(path.join(dir, OUTPUTS['prod-us']))).toBe(false);
  expect(r.stdout).toContain('web-prod-us: waits in wave prod-us: wave staging (wave 1) has not completed');
  git(dir, ['checkout', '--quiet', '--', '.']);
  git(dir, ['clean', '--quiet', '-fd']);
  const pr = await runCli(['pr', '--dry-run', '--offline'], dir);
  expect(pr.code).toBe(0);
  expect(pr.stdout).toContain('== wave:staging: rollgen/wave_3astaging/adopt ==\ntitle: rollgen(wave staging): adopt');
  expect(pr.stdout).toContain('== web-prod-eu: no PR to propose ==');
  fs.rmSync(dir, { recursive: true, force: true });
});
