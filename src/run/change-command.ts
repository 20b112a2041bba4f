import { ChangeOptions, withPlannedWrites, writeAll } from '../app/plan-write';
import { RunContext } from '../app/context';
import { withWholeFleet, writeWaveStep } from '../app/fleet-step';
import { AppCommand } from '../state/app-state';

/** advance / abort / promote / retry: compute the next state of each app and write it to its output. */
export async function changeCommand(
  ctx: RunContext,
  args: readonly string[],
  opts: ChangeOptions,
  command: AppCommand,
): Promise<void> {
  if (command.kind === 'advance') {
    // With waves only the live wave is written (docs/fleet.md); nothing is staged before that is known.
    const run = withWholeFleet(ctx, args, opts);
    if (run.args !== args)
      return withPlannedWrites(ctx, run.args, run.opts, command, (planned) =>
        planned.fleet ? writeWaveStep(ctx, planned) : writeAll(ctx, planned),
      );
  }
  await withPlannedWrites(ctx, args, opts, command, (planned) => writeAll(ctx, planned), { stageEarly: true });
}
