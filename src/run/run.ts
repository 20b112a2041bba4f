import { describeError, exitCodeFor } from '../errors';
import { stateCommand } from './advance-command';
import { CommonOptions, RunContext } from './context';
import { planCommand, validateCommand } from './plan-command';
import { renderCommand } from './render-command';
import { simulateCommand, SimulateOptions } from './simulate-command';
import { statusCommand } from './status-command';

/** One request from the CLI or the Action. */
export type RunRequest =
  | { readonly command: 'plan'; readonly args: readonly string[]; readonly options: CommonOptions & { json?: boolean } }
  | { readonly command: 'render'; readonly args: readonly string[]; readonly options: CommonOptions & { step?: number } }
  | { readonly command: 'advance' | 'abort' | 'retry' | 'validate'; readonly args: readonly string[]; readonly options: CommonOptions }
  | { readonly command: 'promote'; readonly args: readonly string[]; readonly options: CommonOptions & { full?: boolean } }
  | { readonly command: 'status'; readonly args: readonly string[]; readonly options: CommonOptions & { json?: boolean } }
  | { readonly command: 'simulate'; readonly args: readonly string[]; readonly options: SimulateOptions };

/** Runs a command and maps any error to an exit status: the only catch in rollgen. */
export async function run(request: RunRequest, ctx: RunContext, debug = false): Promise<number> {
  try {
    await dispatch(request, ctx);
    return 0;
  } catch (error) {
    ctx.stderr(describeError(error, debug) + '\n');
    return exitCodeFor(error);
  }
}

function dispatch(r: RunRequest, ctx: RunContext): Promise<void> {
  switch (r.command) {
    case 'plan':
      return planCommand(ctx, r.args, r.options);
    case 'render':
      return renderCommand(ctx, r.args, r.options);
    case 'validate':
      return validateCommand(ctx, r.args, r.options);
    case 'status':
      return statusCommand(ctx, r.args, r.options);
    case 'simulate':
      return simulateCommand(ctx, r.args, r.options);
    case 'advance':
      return stateCommand(ctx, r.args, r.options, { kind: 'advance' });
    case 'abort':
      return stateCommand(ctx, r.args, r.options, { kind: 'abort' });
    case 'retry':
      return stateCommand(ctx, r.args, r.options, { kind: 'retry' });
    case 'promote':
      return stateCommand(ctx, r.args, r.options, { kind: 'promote', full: r.options.full === true });
  }
}
