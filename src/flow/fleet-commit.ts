import * as path from 'path';
import { StateError } from '../errors';
import { gitTopLevel } from '../io/git';
import { LOCK_FILE } from '../io/output-lock';
import type { WaveConfig } from '../io/config-waves';
import { PlannedWrites, writeAll } from '../app/plan-write';
import type { PendingWrite } from '../app/next-output';
import { StartingTarget, nextWaveStep, pinnedRevisionHold } from '../app/fleet-step';
import { RunContext } from '../app/context';
import { localGateHold, reportHeld } from './local-gates';
import { checkCommittable, commitOutput, commitSubject } from './local-commit';
import { flowEdges } from './edges';

/**
 * `advance --commit` in a repository with waves (docs/fleet.md): the live wave moves one step in
 * one commit touching every moving target's output; later waves are not written. Apps in no wave
 * commit one by one as always.
 */
export async function advanceFleet(ctx: RunContext, planned: PlannedWrites): Promise<void> {
  const { waves, aborted, outputs } = planned.fleet!;
  const step = nextWaveStep(waves, planned.writes, aborted);
  const freeHolds = step.free.map((w) => localGateHold(ctx, w.loaded, w));
  const free = step.free.filter((_, i) => !freeHolds[i]);
  const live = step.live;
  const waveHolds = live
    ? waveHold(ctx, { ...live, waves, outputs, running: planned.fleet!.running }, step.moving)
    : [];
  const moving = waveHolds.length > 0 ? [] : step.moving;
  checkCommittable(ctx, [...free, ...moving]);
  if (free.length > 0) await writeAll(ctx, { ...planned, writes: free, idle: [] }, (w) => commitOutput(ctx, w));
  if (moving.length > 0) {
    await writeAll(ctx, { ...planned, writes: moving, idle: [] });
    commitWave(ctx, moving, live!.wave);
  }
  for (const line of planned.idle) ctx.stdout(line + '\n');
  for (const w of step.waiting) ctx.stdout(`${w.write.app}: waits in wave ${w.wave.name}: ${w.reason}\n`);
  reportHeld([...freeHolds.filter((h): h is string => h !== undefined), ...waveHolds]);
}

/**
 * `abort|promote|retry --wave W --commit`: every target of the wave that needs the command, in one commit
 * (as a wave step is); the others are named with why, and none to move commits nothing.
 */
export async function commitWaveCommand(ctx: RunContext, planned: PlannedWrites, wave: WaveConfig): Promise<void> {
  checkCommittable(ctx, planned.writes);
  await writeAll(ctx, planned);
  if (planned.writes.length > 0) commitWave(ctx, planned.writes, wave);
}

/** Why the live wave cannot move now: a target at a gate not passed (the wave moves together), or the bake of the wave before. */
function waveHold(
  ctx: RunContext,
  fleet: {
    readonly wave: WaveConfig;
    readonly number: number;
    readonly waves: readonly WaveConfig[];
    readonly outputs: ReadonlyMap<string, string>;
    readonly running: ReadonlyMap<string, readonly string[]>;
  },
  moving: readonly PendingWrite[],
): string[] {
  const { wave, number, waves } = fleet;
  const gates = moving.flatMap((w) => localGateHold(ctx, w.loaded, w) ?? []);
  if (gates.length > 0) return gates.map((g) => `wave ${wave.name}: ${g}`);
  const starting = moving.every((w) => (w.before.status?.rollouts ?? []).every((r) => r.phase !== 'Progressing'));
  const pin = starting ? pinnedRevisionHold(waves, number, fleet.running, moving.flatMap(canaryStart)) : undefined;
  if (pin) return [pin];
  const before = waves[number - 2];
  if (!starting || !before || before.bakeSeconds === 0 || moving.length === 0) return [];
  const outputs = before.targets.flatMap((t) => fleet.outputs.get(t) ?? []);
  const left = bakeLeft(ctx, before, outputs);
  return left > 0
    ? [`wave ${wave.name}: wave ${before.name} bakes ${before.bakeSeconds}s after its last commit: ${left}s left`]
    : [];
}

/** A write that starts a canary (a step or a straight promotion), with the revisions it rolls out. */
function canaryStart(w: PendingWrite): StartingTarget[] {
  const started = w.transition.status.rollouts.filter(
    (r) => (r.phase === 'Progressing' || r.phase === 'Promoting') && r.canaryRevision !== undefined,
  );
  return started.length > 0 ? [{ app: w.app, revisions: started.map((r) => r.canaryRevision!) }] : [];
}

/** Seconds of the bake of `wave` still to run: counted from the last commit touching its targets' outputs. */
function bakeLeft(ctx: RunContext, wave: WaveConfig, outputs: readonly string[]): number {
  const edges = flowEdges(ctx);
  const top = outputs.length > 0 ? gitTopLevel(edges.git, path.resolve(outputs[0])) : undefined;
  if (!top) return 0;
  const rels = outputs.map((o) => path.relative(top, path.resolve(o)) || '.');
  const dates = edges.git(['log', '-1', '--format=%ct', '--', ...rels], top).trim();
  if (!dates) return 0;
  const left = Number(dates) + wave.bakeSeconds - Math.floor(edges.now().getTime() / 1000);
  return Math.max(0, left);
}

/** One commit for the wave step: every moving output staged, one subject naming the wave. */
export function commitWave(ctx: RunContext, writes: readonly PendingWrite[], wave: WaveConfig): void {
  const git = flowEdges(ctx).git;
  const top = gitTopLevel(git, path.resolve(writes[0].output));
  if (!top) throw new StateError(`--commit: ${writes[0].output} is not inside a git work tree`);
  const rels = writes.map((w) => path.relative(top, path.resolve(w.output)) || '.');
  for (const rel of rels) git(['add', '--all', '--', rel, `:(exclude)${path.posix.join(rel, LOCK_FILE)}`], top);
  const subject = `rollgen(wave ${wave.name}): ${writes.map((w) => commitSubject(w).replace(/^rollgen\(([^)]*)\): /, '$1 ')).join('; ')}`;
  const body = writes.flatMap((w) => w.summary.split('\n').filter((l) => l !== '' && !l.startsWith('wrote ')));
  git(['commit', '--quiet', '-m', `${subject}\n\n${body.join('\n')}\n`, '--', ...rels], top);
  const sha = git(['rev-parse', '--short', 'HEAD'], top).trim();
  ctx.stdout(`committed ${sha} ${subject}\n`);
}
