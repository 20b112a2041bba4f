import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CLEAR_SCREEN, Ticker } from '../src/io/watch';
import { runCli } from './helpers/cli';
import { BIN, makeAppDir } from './helpers/rollout-dir';
import { FlowWorld } from './helpers/flow-world';
import { EXAMPLE, bumpImage, commitAll, git, makeRepo } from './helpers/git-repo';

/** `rollgen status` read from a real git history, a fake GitHub and an injected clock and ticker. */
const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';
const T0 = new Date('2026-03-01T09:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
let repo: string | undefined;
afterEach(() => repo && fs.rmSync(repo, { recursive: true, force: true }));

/** echo at step 2 (a 600 s pause follows it), each state committed: the landing of step 2 is T0 + 300 s. */
async function atStepTwo(): Promise<string> {
  const r = makeRepo(['echo'], CONFIG, T0);
  const step = async (command: string, when: number) => {
    expect((await runCli([command, 'echo'], r)).code).toBe(0);
    commitAll(r, command, at(when));
  };
  await step('advance', 10);
  await step('advance', 20);
  bumpImage(r, 'echo', '2.54', at(30));
  await step('advance', 40);
  await step('promote', 300);
  return r;
}

const statusAt = (dir: string, seconds: number, ...args: string[]) =>
  runCli(['status', 'echo', ...args], dir, '', { now: () => at(seconds) });

test('a timed gate counts from the commit that landed the step: the time left, then the command that moves on', async () => {
  repo = await atStepTwo();
  const waiting = await statusAt(repo, 400);
  expect(waiting.code).toBe(0);
  expect(waiting.stdout).toMatch(/^Status: +॥ Paused$/m);
  expect(waiting.stdout).toMatch(/^ +Step: +2\/4$/m);
  expect(waiting.stdout).toMatch(/^ +Traffic: +40% to canary; requests matching x-canary=on$/m);
  expect(waiting.stdout).toMatch(/^ +Replicas: +canary 2, stable 5 \(desired 5\)$/m);
  expect(waiting.stdout).toMatch(
    /^Images: +registry\.k8s\.io\/e2e-test-images\/agnhost:2\.53 \(stable\)\n +registry\.k8s\.io\/e2e-test-images\/agnhost:2\.54 \(canary\)$/m,
  );
  expect(waiting.stdout).toContain(
    'Gate:          before step 3: after 600s; 500s left of 600s (counting from 2026-03-01T09:05:00.000Z)\n',
  );
  // Written by plain advance and committed by hand: local mode, where advance moves at once; waiting first.
  expect(waiting.stdout).toMatch(
    /^Next: +sleep 500 && rollgen advance echo +# moves to step 3 once the gate's 500s are up\n +or rollgen advance echo +# moves to step 3 at once: without --commit, you are the gate$/m,
  );
  const due = await statusAt(repo, 901, '--json');
  const [view] = JSON.parse(due.stdout).rollouts;
  expect(view).toMatchObject({
    phase: 'Progressing',
    gate: { kind: 'timed', seconds: 600, remaining: 0, passed: true, since: '2026-03-01T09:05:00.000Z' },
    next: { command: 'rollgen advance echo', does: 'moves to step 3' },
  });
});

test('offline, status says it did not look at GitHub; with --pr it names the open PR of the app', async () => {
  const w = await FlowWorld.echoAtStep(CONFIG, 1);
  repo = w.repo;
  const offline = await w.run(['status', 'echo']);
  expect(offline.stdout).toMatch(/^GitHub: +not looked up \(offline; `rollgen status --pr`/m);
  const pr = w.openPr('rollgen/echo/step-2');
  const online = await w.run(['status', 'echo', '--pr']);
  expect(online.code).toBe(0);
  expect(online.stdout).toContain(
    `GitHub:        PR #${pr.number} (step 2) open: ${pr.title} ${pr.url}; merging it applies it\n`,
  );
  expect(online.writes).toEqual([]);
  // Read through GitHub, the commands it suggests are the PR-mode ones.
  expect(online.stdout).toMatch(
    /^Next: +rollgen pr echo +# opens or updates the step 2 PR; merging it is the approval; rollgen never merges it\n +or rollgen promote echo --pr +# opens or updates a PR that moves to step 2 without waiting for the gate; merging it applies it\n +or rollgen abort echo --pr /m,
  );
  // The fake's merges land as `Merge #N`, not as GitHub names them: offline, status takes them for commits by hand.
  expect(offline.stdout).toMatch(
    /^Next: +rollgen advance echo +# moves to step 2 at once: without --commit, you are the gate$/m,
  );
  const json = JSON.parse((await w.run(['status', 'echo', '--pr', '--json'])).stdout);
  expect(json.rollouts[0].github).toEqual({
    looked: true,
    forge: 'github',
    pulls: [{ number: pr.number, url: pr.url, title: pr.title, does: 'step 2', ref: `#${pr.number}` }],
  });
});

/** A ticker that counts rounds and runs `between` after each; it stops after `rounds`, as Ctrl-C would. */
function countedTicker(rounds: number, tty: boolean, between: (round: number) => Promise<void>) {
  const waits: number[] = [];
  const ticker: Ticker = {
    tty,
    sleep: async (ms) => {
      waits.push(ms);
      await between(waits.length);
      return waits.length < rounds;
    },
  };
  return { ticker, waits };
}

test('--watch re-reads the state every round, clears the screen on a terminal and ends cleanly when interrupted', async () => {
  repo = await atStepTwo();
  const dir = repo;
  const { ticker, waits } = countedTicker(2, true, async (round) => {
    if (round === 1) expect((await runCli(['advance', 'echo'], dir)).code).toBe(0);
  });
  const r = await runCli(['status', 'echo', '--watch', '5'], dir, '', { now: () => at(400), ticker });
  expect(r.code).toBe(0);
  expect(waits).toEqual([5000, 5000]);
  const rounds = r.stdout.split(CLEAR_SCREEN).slice(1);
  expect(rounds).toHaveLength(2);
  expect(rounds[0]).toMatch(/^every 5s, 2026-03-01T09:06:40\.000Z \(Ctrl-C ends\)\n\nName: +echo\/echo-rollout\n/);
  expect(rounds[0]).toMatch(/^ +Step: +2\/4$/m);
  expect(rounds[1]).toMatch(/^ +Step: +3\/4$/m);
});

test('--watch into a pipe never clears the screen; -o json prints one document per round', async () => {
  repo = await atStepTwo();
  const { ticker } = countedTicker(3, false, async () => undefined);
  const r = await runCli(['status', 'echo', '--watch', '-o', 'json'], repo, '', { now: () => at(400), ticker });
  expect(r.code).toBe(0);
  expect(r.stdout).not.toContain(CLEAR_SCREEN);
  const docs = r.stdout.split(/\n(?=\{)/).map((d) => JSON.parse(d));
  expect(docs.map((d) => d.rollouts[0].step)).toEqual([2, 2, 2]);
});

test('--watch refuses an interval that is not a positive number of seconds', async () => {
  repo = makeRepo(['echo'], CONFIG, T0);
  const r = await runCli(['status', '--watch', '0'], repo);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--watch.*a number of seconds above 0/);
  expect(fs.existsSync(path.join(repo, 'deploy'))).toBe(false);
});

test('with --pr and a health gate, status shows what health awaits, then counts the timed gate from its success', async () => {
  const w = await FlowWorld.echoAtStep(
    'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n',
    2,
  );
  repo = w.repo;
  fs.appendFileSync(path.join(w.repo, 'rollgen.yaml'), "health:\n  statuses: ['kustomization/{name}/*']\n");
  commitAll(w.repo, 'health gate', w.now);
  w.later(3600);
  let r = await w.run(['status', 'echo', '--pr']);
  expect(r.stdout).toMatch(/^Status: +◌ Progressing$/m);
  expect(r.stdout).toMatch(/^Health: +waiting: awaiting status kustomization\/echo\/\*$/m);
  expect(r.stdout).toMatch(
    /^Gate: +before step 3: after 600s; 600s passed; waiting for health: awaiting status kustomization\/echo\/\*/m,
  );
  const landing = git(w.repo, ['log', '-1', '--format=%H', '--', 'deploy/echo']).trim();
  w.fake.postStatus(landing, 'kustomization/echo/6f2a1b3c', 'success');
  const since = w.now;
  w.later(100);
  r = await w.run(['status', 'echo', '--pr']);
  expect(r.stdout).toMatch(/^Status: +॥ Paused$/m);
  expect(r.stdout).toMatch(/^Health: +healthy: reported on [0-9a-f]{12} at /m);
  expect(r.stdout).toContain(`500s left of 600s (counting from ${since.toISOString()})`);
  expect(r.writes).toEqual([]);
});

test('bin/rollgen status --watch ends with exit status 0 on Ctrl-C (SIGINT)', async () => {
  repo = makeRepo(['echo'], CONFIG, T0);
  const child = spawn(BIN, ['status', 'echo', '--watch', '30'], { cwd: repo });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  // Interrupted as soon as the first round is printed: the loop ends without waiting out the 30 s.
  child.stdout.on('data', (d) => {
    stdout += d;
    if (stdout.includes('Next:')) child.kill('SIGINT');
  });
  const code = await new Promise((resolve) => child.on('close', (c, signal) => resolve(signal ?? c)));
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(stdout).not.toContain(CLEAR_SCREEN);
  expect(stdout.match(/^Name: /gm)).toHaveLength(1);
});

test('status SOURCE without an output suggests commands with OUT in its place, never one that cannot run', async () => {
  repo = makeAppDir('rollgen-status-', EXAMPLE);
  const r = await runCli(['status', 'src'], repo);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^Next: +rollgen advance src OUT +# adopts the Deployment \(first deploy\)$/m);
});

test('GitHub flags without --pr are refused, not ignored', async () => {
  repo = makeAppDir('rollgen-status-', EXAMPLE);
  const r = await runCli(['status', 'src', '--repo', 'acme/deploy'], repo);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('status: --repo goes with --pr (reading or writing GitHub); add --pr, or drop it\n');
});
