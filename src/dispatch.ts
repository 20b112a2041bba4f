import { describeError, exitCodeFor } from './errors';
import { InputError } from './errors';
import { ChangePrOptions, changePr } from './flow/change-pr';
import { prCommand } from './flow/pr-command';
import { FlowOptions } from './flow/session';
import { AppCommand } from './state/app-state';
import { changeCommand } from './run/change-command';
import { changeCommit } from './flow/local-commit';
import { CommonOptions, RunContext } from './app/context';
import { planCommand, validateCommand } from './run/plan-command';
import { renderCommand } from './run/render-command';
import { simulateCommand, SimulateOptions } from './run/simulate-command';
import { statusCommand } from './run/status-command';
import { AnalyzeOptions, analyzeCommand } from './run/analyze-command';

/** One request from the CLI or the Action. */
export type RunRequest =
  | { readonly command: 'plan'; readonly args: readonly string[]; readonly options: CommonOptions & { json?: boolean } }
  | {
      readonly command: 'render';
      readonly args: readonly string[];
      readonly options: CommonOptions & { step?: number };
    }
  | { readonly command: 'validate'; readonly args: readonly string[]; readonly options: CommonOptions }
  | {
      readonly command: 'advance' | 'abort' | 'retry';
      readonly args: readonly string[];
      readonly options: ChangeOptions;
    }
  | {
      readonly command: 'promote';
      readonly args: readonly string[];
      readonly options: ChangeOptions & { full?: boolean };
    }
  | { readonly command: 'pr'; readonly args: readonly string[]; readonly options: FlowOptions }
  | {
      readonly command: 'status';
      readonly args: readonly string[];
      readonly options: CommonOptions & { json?: boolean };
    }
  | { readonly command: 'simulate'; readonly args: readonly string[]; readonly options: SimulateOptions }
  | { readonly command: 'analyze'; readonly args: readonly string[]; readonly options: AnalyzeOptions };

/** advance/abort/promote/retry write the output, commit it (--commit), or open its PR (--pr; not advance: `rollgen pr` does). */
export type ChangeOptions = CommonOptions & { readonly force?: boolean } & ChangePrOptions & {
    readonly pr?: boolean;
    /** Local git mode: commit each app's new output (src/flow/local-commit.ts). */
    readonly commit?: boolean;
  };

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
    case 'pr':
      return prCommand(ctx, r.args, r.options);
    case 'analyze':
      return analyzeCommand(ctx, r.args, r.options);
    case 'advance':
      return change(ctx, r.args, r.options, { kind: 'advance' });
    case 'abort':
      return change(ctx, r.args, r.options, { kind: 'abort' });
    case 'retry':
      return change(ctx, r.args, r.options, { kind: 'retry' });
    case 'promote':
      return change(ctx, r.args, r.options, { kind: 'promote', full: r.options.full === true });
  }
}

function change(ctx: RunContext, args: readonly string[], o: ChangeOptions, command: AppCommand): Promise<void> {
  if (o.pr && o.commit) throw new InputError([], `${command.kind}: --pr and --commit exclude each other`);
  if (o.pr && command.kind === 'advance')
    throw new InputError([], 'advance --pr: use rollgen pr, which opens the next step of every app');
  if (!o.pr && (o.merge || o.dryRun || o.offline))
    throw new InputError([], `${command.kind}: --merge, --dry-run and --offline go with --pr`);
  if (o.pr) return changePr(ctx, args, o, command);
  return o.commit ? changeCommit(ctx, args, o, command) : changeCommand(ctx, args, o, command);
}
