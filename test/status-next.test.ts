import * as path from 'path';
import { FlowWorld } from './helpers/flow-world';
import { commitAll, git } from './helpers/git-repo';
import { StatusViewJson, StatusWorld } from './helpers/status-world';

/**
 * Every command `status` offers under Next is run, in each mode a user can be in, and does what
 * the view says it does: moves a step at once, moves only once a gate's time is up (and holds
 * before), aborts. Modes: local files without git, local files committed by hand, local git mode
 * (`--commit`), and the PR flow against the fake GitHub (`status --pr`).
 */
const EXAMPLE = path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver'); // step 1 manual, step 2 after 600s
const worlds: { remove(): void }[] = [];
afterAll(() => worlds.forEach((w) => w.remove()));

type Mode = 'local' | 'hand-commit' | 'commit';

/** The app adopted, a new image, and the rollout at `step`, moved as a user in `mode` moves it. */
async function atStep(mode: Mode, step: number): Promise<StatusWorld> {
  const w = new StatusWorld(EXAMPLE, mode !== 'local');
  worlds.push(w);
  const move = async (...args: string[]) => {
    w.later(10);
    await w.ok([...args, ...(mode === 'commit' ? ['--commit'] : [])]);
    if (mode === 'hand-commit') commitAll(w.dir, `rollgen ${args.join(' ')}, committed by a person`, w.now);
  };
  await move('advance', 'shop');
  await move('advance', 'shop');
  w.bumpImage();
  await move('advance', 'shop');
  for (let s = 1; s < step; s++) await move('promote', 'shop');
  w.later(10);
  return w;
}

/** The suggested commands: the first is Next, then the alternatives. */
const suggested = (v: StatusViewJson) => [...(v.next ? [v.next] : []), ...v.otherCommands];

/** Runs one suggested command on a copy of `w` as a shell would (`sleep N` passes N seconds), checking what `does` claims. */
async function runsAsTold(w: StatusWorld, c: { command: string; does: string }, mode: Mode): Promise<void> {
  const before = await w.view();
  const m = /^(?:sleep (\d+) && )?rollgen (\S+) shop( --commit)?$/.exec(c.command);
  expect(m).not.toBeNull();
  expect(m![3] !== undefined).toBe(mode === 'commit');
  const wait = m![1] ? Number(m![1]) : 0;
  const args = c.command
    .replace(/^sleep \d+ && rollgen /, '')
    .replace(/^rollgen /, '')
    .split(' ');
  const copy = w.copy();
  worlds.push(copy);
  if (wait > 0) {
    expect(c.does).toContain(`once the gate's ${wait}s are up`);
    expect(wait).toBe(before.gate!.remaining);
    if (/advance --commit holds/.test(c.does)) {
      // What it says it waits for: run before the time is up, it moves nothing.
      const early = await copy.run(args);
      expect(early.code).toBe(1);
      expect(early.stderr).toContain(`${wait}s left`);
      expect((await copy.view()).step).toBe(before.step);
    }
    copy.later(wait);
  }
  await copy.ok(args);
  const after = await copy.view();
  const moves = /moves to step (\d+)/.exec(c.does);
  if (moves) expect({ phase: after.phase, step: after.step }).toMatchObject({ step: Number(moves[1]) });
  if (/at once|now, passing the gate/.test(c.does)) expect(wait).toBe(0);
  if (/routes all traffic to stable and removes the canary/.test(c.does)) {
    expect(after.phase).toBe('Aborted');
    expect(after.images.canary).toBeNull();
  }
  expect(moves !== null || /routes all traffic to stable/.test(c.does)).toBe(true);
}

describe.each(['local', 'hand-commit', 'commit'] as const)('Next in %s mode', (mode) => {
  test.each([
    [1, 'manual'],
    [2, 'timed'],
  ])('at step %i (a %s gate) every suggested command does what the view says', async (step, kind) => {
    const w = await atStep(mode, step);
    const view = await w.view();
    expect(view.gate?.kind).toBe(kind);
    expect(view.mode.name).toBe(mode === 'hand-commit' ? 'local' : mode);
    const commands = suggested(view);
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const c of commands) await runsAsTold(w, c, mode);
    // The safe command comes first: at a timed gate with time left, the one that waits for it.
    const timeLeft = kind === 'timed' && view.gate!.remaining !== null;
    if (timeLeft) expect(view.next!.command).toMatch(/^sleep \d+ && /);
    if (mode === 'commit' && kind === 'manual') expect(view.next!.command).toBe('rollgen promote shop --commit');
    if (mode !== 'commit')
      expect(commands.some((c) => / at once: without --commit, you are the gate$/.test(c.does))).toBe(true);
  });
});

test('without --pr, status takes an output whose last change is a merged rollgen PR for the PR flow', async () => {
  const w = await atStep('commit', 1);
  const subject = git(w.dir, ['log', '-1', '--format=%s']).trim();
  git(w.dir, ['commit', '--quiet', '--amend', '-m', `${subject} (#12)`], w.now);
  const view = await w.view();
  expect(view.mode.name).toBe('pr');
  expect(view.next!.command).toBe('rollgen pr shop');
  expect(await w.ok(['status', 'shop'])).toMatch(/^Mode: +PR flow: rollgen pr opens each step's PR/m);
});

test('a merge commit of a rollgen PR branch is the PR flow too; changes not committed are local, whatever the last commit', async () => {
  const w = await atStep('commit', 1);
  const subject = git(w.dir, ['log', '-1', '--format=%s']).trim();
  git(
    w.dir,
    ['commit', '--quiet', '--amend', '-m', `Merge pull request #7 from acme/rollgen/shop/step-1\n\n${subject}`],
    w.now,
  );
  expect((await w.view()).mode.name).toBe('pr');
  await w.ok(['promote', 'shop']); // written, not committed
  const view = await w.view();
  expect(view.mode).toEqual({ name: 'local', why: 'the output has changes that are not committed' });
  expect(view.next!.command).toMatch(/^(sleep \d+ && )?rollgen advance shop$/);
});

const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';

/** The step recorded in the checkout (what the merged PRs brought to main). */
const stepOf = async (w: FlowWorld) => JSON.parse((await w.run(['status', 'echo', '--json'])).stdout).rollouts[0];

describe('Next in the PR flow (status --pr, the fake GitHub)', () => {
  test('at a timed gate: rollgen pr merges the step PR only once the time is up; promote --pr opens a PR that moves now', async () => {
    const w = await FlowWorld.echoAtStep(CONFIG, 2);
    const view = JSON.parse((await w.run(['status', 'echo', '--pr', '--json'])).stdout).rollouts[0] as StatusViewJson;
    expect(view.mode.name).toBe('pr');
    const left = view.gate!.remaining!;
    expect(view.next).toEqual({
      command: 'rollgen pr echo',
      does: `opens or updates the step 3 PR; rollgen merges it once the ${left}s left have passed and its checks are green`,
    });
    const promote = w.copy();
    const promoteAt = promote.now;
    expect((await w.pr('echo')).code).toBe(0);
    expect((await stepOf(w)).step).toBe(2); // not merged: time is left
    w.later(left);
    expect((await w.pr('echo')).code).toBe(0);
    expect((await stepOf(w)).step).toBe(3);

    expect(view.otherCommands[0].command).toBe('rollgen promote echo --pr');
    expect(view.otherCommands[0].does).toBe(
      'opens or updates a PR that moves to step 3 without waiting for the gate; merging it applies it',
    );
    const promoted = await promote.run(['promote', 'echo', '--pr']);
    expect(promoted.code).toBe(0);
    expect((await stepOf(promote)).step).toBe(2);
    // Merged by a person with the gate's time still left: it moved without waiting.
    promote.merge(promote.openPr('rollgen/echo/step-3').number);
    expect((await stepOf(promote)).step).toBe(3);
    expect(promote.now).toEqual(promoteAt);
  });

  test('at a manual gate: rollgen pr opens the step PR and never merges it; a person merging it moves the step', async () => {
    const w = await FlowWorld.echoAtStep(CONFIG, 1);
    const view = JSON.parse((await w.run(['status', 'echo', '--pr', '--json'])).stdout).rollouts[0] as StatusViewJson;
    expect(view.next).toEqual({
      command: 'rollgen pr echo',
      does: 'opens or updates the step 2 PR; merging it is the approval; rollgen never merges it',
    });
    w.later(3600);
    expect((await w.pr('echo')).code).toBe(0);
    const pr = w.openPr('rollgen/echo/step-2');
    expect((await stepOf(w)).step).toBe(1);
    w.merge(pr.number);
    expect((await stepOf(w)).step).toBe(2);
  });
});
