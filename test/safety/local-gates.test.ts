import * as fs from 'fs';
import { GitRunner } from '../../src/io/git';
import { runCli } from '../helpers/cli';
import { bumpImage, git, makeRepo } from '../helpers/git-repo';

const T0 = new Date('2026-03-01T10:00:00Z');
const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';

/**
 * The example's gates: after step 1 `pause: {}` (manual), after step 2 `pause: {duration: 600}`,
 * after step 3 no pause (manual by default), after the last `100%` step automatic.
 */
describe('advance --commit respects gates', () => {
  let repo: string;
  let clock = T0;
  // rollgen's own commits are dated by the simulated clock, so timed gates count from them.
  const datedGit: GitRunner = (args, cwd) => git(cwd, args, clock);
  const run = (...args: string[]) =>
    runCli([...args, 'echo', '--commit'], repo, '', { git: datedGit, now: () => clock });
  const commits = () => Number(git(repo, ['rev-list', '--count', 'HEAD']).trim());
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  test('manual and timed pauses hold advance (exit 1, which gate, time left); promote passes them', async () => {
    repo = makeRepo(['echo'], CONFIG, T0);
    // Adopting and starting a rollout are the person's own runs of advance.
    expect((await run('advance')).code).toBe(0);
    expect((await run('advance')).code).toBe(0);
    bumpImage(repo, 'echo', '2.54', T0);
    expect((await run('advance')).code).toBe(0);

    const manual = await run('advance');
    expect(manual.code).toBe(1);
    expect(manual.stderr).toMatch(/echo: step 2 waits for a manual gate .*rollgen promote echo --commit/);
    const before = commits();
    expect((await run('advance')).code).toBe(1);
    expect(commits()).toBe(before);
    expect((await run('promote')).stdout).toMatch(/step 1 of 4 -> step 2 of 4 \(promoted, gate skipped\)/);

    clock = new Date(T0.getTime() + 100_000);
    const timed = await run('advance');
    expect(timed.code).toBe(1);
    expect(timed.stderr).toContain(
      'echo: step 3 waits for a timed gate of 600s from 2026-03-01T10:00:00.000Z: 500s left; `rollgen promote echo --commit` passes it now',
    );
    clock = new Date(T0.getTime() + 600_000);
    expect((await run('advance')).stdout).toMatch(/step 3 of 4/);
    // After step 3 (no pause: manual by default), then the last 100% step promotes by itself.
    expect((await run('advance')).code).toBe(1);
    expect((await run('promote')).code).toBe(0);
    expect((await run('advance')).stdout).toMatch(/promote ->/);
    expect((await run('advance')).stdout).toMatch(/clean up/);
  });
});

/** Argo blue-green in local git mode: after an abort, the removal of the preview waits abortScaleDownDelaySeconds. */
test('after a blue-green abort, advance --commit holds the removal of the preview for its delay, then removes it', async () => {
  let clock = T0;
  const datedGit: GitRunner = (args, cwd) => git(cwd, args, clock);
  const run = (...args: string[]) =>
    runCli([...args, 'echo', '--commit'], repo, '', { git: datedGit, now: () => clock });
  const repo = makeRepo(['echo'], CONFIG, T0);
  try {
    fs.writeFileSync(
      `${repo}/apps/echo/rollout.yaml`,
      'apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: echo}\nspec:\n  replicas: 3\n' +
        '  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: echo}\n' +
        '  strategy:\n    blueGreen: {activeService: echo, abortScaleDownDelaySeconds: 120}\n',
    );
    fs.rmSync(`${repo}/apps/echo/ingress.yaml`);
    git(repo, ['commit', '-qam', 'blue-green'], T0);
    for (let i = 0; i < 2; i++) expect((await run('advance')).code).toBe(0);
    bumpImage(repo, 'echo', '2.54', T0);
    expect((await run('advance')).code).toBe(0);
    expect((await run('abort')).code).toBe(0);
    clock = new Date(T0.getTime() + 100_000);
    const held = await run('advance');
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(
      'echo: remove waits for a timed gate of 120s from 2026-03-01T10:00:00.000Z: 20s left; run `rollgen advance echo --commit` again once it has passed',
    );
    expect(fs.existsSync(`${repo}/deploy/echo/deployment-echo-canary.yaml`)).toBe(true);
    clock = new Date(T0.getTime() + 120_000);
    expect((await run('advance')).stdout).toContain('remove canary workloads');
    expect(fs.existsSync(`${repo}/deploy/echo/deployment-echo-canary.yaml`)).toBe(false);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
});
