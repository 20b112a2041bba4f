import { ChangeOptions, withPlannedWrites, writeAll } from '../app/plan-write';
import { RunContext } from '../app/context';
import { AppCommand } from '../state/app-state';

/** advance / abort / promote / retry: compute the next state of each app and write it to its output. */
export async function changeCommand(
  ctx: RunContext,
  args: readonly string[],
  opts: ChangeOptions,
  command: AppCommand,
): Promise<void> {
  await withPlannedWrites(ctx, args, opts, command, (planned) => writeAll(ctx, planned), { stageEarly: true });
}
