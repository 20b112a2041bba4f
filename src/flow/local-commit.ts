import * as fs from 'fs';
import * as path from 'path';
import { StateError } from '../errors';
import { gitTopLevel } from '../io/git';
import { LOCK_FILE } from '../io/output-lock';
import { isGuarded } from '../io/output-guard';
import { isCommitted } from '../io/output-journal';
import { ChangeOptions, withPlannedWrites, writeAll } from '../app/plan-write';
import type { PendingWrite } from '../app/next-output';
import { localGateHold, reportHeld } from './local-gates';
import { AppCommand } from '../state/app-state';
import { RunContext } from '../app/context';
import { describeTarget } from './describe';
import { flowEdges } from './edges';
import { targetOf } from './target';
import { advanceFleet, commitWaveCommand } from './fleet-commit';
import { isWaveCommand } from './wave-command';
import { withWholeFleet } from '../app/fleet-step';

/** advance / abort / promote / retry --commit: write each app's next output, then commit it. */
export async function changeCommit(
  ctx: RunContext,
  args: readonly string[],
  opts: ChangeOptions,
  command: AppCommand,
): Promise<void> {
  const run = command.kind === 'advance' ? withWholeFleet(ctx, args, opts) : { args, opts };
  await withPlannedWrites(ctx, run.args, run.opts, command, async (planned) => {
    if (command.kind === 'advance' && planned.fleet) return advanceFleet(ctx, planned);
    const wave = isWaveCommand(command, opts.wave) ? planned.fleet?.waves.find((w) => w.name === opts.wave) : undefined;
    if (wave) return commitWaveCommand(ctx, planned, wave);
    // Local git mode respects gates: an app at a pause that has not passed is held (exit 1), the others go on.
    const holds = command.kind === 'advance' ? planned.writes.map((w) => localGateHold(ctx, w.loaded, w)) : [];
    const writes = planned.writes.filter((_, i) => !holds[i]);
    checkCommittable(ctx, writes);
    if (writes.length > 0 || holds.every((h) => !h))
      await writeAll(ctx, { ...planned, writes }, (w) => commitOutput(ctx, w));
    reportHeld(holds.filter((h): h is string => h !== undefined));
  });
}

/**
 * Local git mode (`advance|abort|promote|retry --commit`), for users off GitHub: each app's new
 * output becomes one commit, so a step stays one reviewable, revertible change. Only the output
 * directory is staged and committed; whatever else the user has staged stays staged.
 */
export function checkCommittable(ctx: RunContext, writes: readonly PendingWrite[]): void {
  const git = flowEdges(ctx).git;
  for (const w of writes) {
    const top = gitTopLevel(git, existingAncestor(path.resolve(w.output)));
    if (!top)
      throw new StateError(`--commit: ${path.relative(ctx.cwd, w.output) || w.output} is not inside a git work tree`);
  }
}

/** A first deploy's output does not exist yet: ask git from the nearest directory that does. */
function existingAncestor(dir: string): string {
  return fs.existsSync(dir) || path.dirname(dir) === dir ? dir : existingAncestor(path.dirname(dir));
}

export function commitOutput(ctx: RunContext, w: PendingWrite): void {
  const git = flowEdges(ctx).git;
  const dir = path.resolve(w.output);
  const top = gitTopLevel(git, dir)!;
  const rel = path.relative(top, dir) || '.';
  // The run's own lock file (and another run's, waiting) sits in the output while it commits; never part of it.
  refusePending(ctx, dir);
  git(['add', '--all', '--', rel, `:(exclude)${path.posix.join(rel, LOCK_FILE)}*`], top);
  git(['commit', '--quiet', '-m', commitMessage(w), '--', rel], top);
  const sha = git(['rev-parse', '--short', 'HEAD'], top).trim();
  ctx.stdout(`committed ${sha} ${commitSubject(w)}\n`);
}

/** A write not completely applied is never committed: the run that wrote it completes it first (output-journal.ts). */
function refusePending(ctx: RunContext, dir: string): void {
  if (!isCommitted(dir) && !isGuarded(dir)) return;
  const shown = path.relative(ctx.cwd, dir) || '.';
  throw new StateError(
    `--commit: ${shown} holds a write that is not completely applied (an interrupted rollgen run's); ` +
      'nothing was committed. Run the command again: it completes the write first',
  );
}

export function commitSubject(w: PendingWrite): string {
  return `rollgen(${w.app}): ${describeTarget(targetOf(w.before.status, w.transition, w.command), w.transition)}`;
}

/** Subject, then one line per rollout that moved (as `advance` prints them). */
export function commitMessage(w: PendingWrite): string {
  const lines = w.summary.split('\n').filter((l) => l !== '' && !l.startsWith('wrote '));
  return `${commitSubject(w)}\n\n${lines.join('\n')}\n`;
}
