import { describeError, exitCodeFor } from './errors';
import { AnalysisVerdictError, InputError } from './errors';
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
import { StatusOptions, statusCommand } from './flow/status-command';
import { withReport } from './app/change-report';
import {
  OutputFormat,
  OutputOptions,
  errorCarried,
  errorDocument,
  isMachineOutput,
  printDocument,
} from './app/output-format';
import { AnalyzeOptions, analyzeCommand } from './run/analyze-command';
import { checkOptions } from './option-checks';
import { appNamesCommand } from './run/app-names-command';

/** One request from the CLI or the Action. */
export type RunRequest =
  | { readonly command: 'plan'; readonly args: readonly string[]; readonly options: CommonOptions & Printing }
  | {
      readonly command: 'render';
      readonly args: readonly string[];
      readonly options: CommonOptions & { step?: number };
    }
  | { readonly command: 'validate'; readonly args: readonly string[]; readonly options: CommonOptions & Printing }
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
  | { readonly command: 'pr'; readonly args: readonly string[]; readonly options: FlowOptions & Printing }
  | { readonly command: 'status'; readonly args: readonly string[]; readonly options: StatusOptions & Printing }
  | { readonly command: 'simulate'; readonly args: readonly string[]; readonly options: SimulateOptions & Printing }
  | { readonly command: 'analyze'; readonly args: readonly string[]; readonly options: AnalyzeOptions & Printing }
  | { readonly command: 'apps'; readonly args: readonly string[]; readonly options: CommonOptions };

/** --json is -o json: the CLI gives either; commands read only `output`. */
export interface Printing extends OutputOptions {
  readonly json?: boolean;
}

/** advance/abort/promote/retry write the output, commit it (--commit), or open its PR (--pr; not advance: `rollgen pr` does). */
export type ChangeOptions = CommonOptions &
  Printing & { readonly force?: boolean } & ChangePrOptions & {
    readonly pr?: boolean;
    /** Local git mode: commit each app's new output (src/flow/local-commit.ts). */
    readonly commit?: boolean;
  };

/** Runs a command and maps any error to an exit status: the only catch in rollgen. */
export async function run(request: RunRequest, ctx: RunContext, debug = false): Promise<number> {
  const o = request.options as Printing;
  const output: OutputFormat | undefined = o.output ?? (o.json ? 'json' : undefined);
  try {
    if (o.json && o.output && o.output !== 'json')
      throw new InputError([], `--json and -o ${o.output} ask for different formats; give one`);
    checkOptions(request.command, request.options);
    await dispatch({ ...request, options: { ...request.options, ...(output ? { output } : {}) } } as RunRequest, ctx);
    return 0;
  } catch (error) {
    const message = describeError(error, debug);
    ctx.stderr(message + '\n');
    // A script reading --json gets the error as a document on stdout too, with the same exit status.
    // An analysis verdict is not an error of the run: analyze already printed it in its report.
    if (isMachineOutput({ output }) && !(error instanceof AnalysisVerdictError) && !errorCarried(error))
      printDocument(ctx, output, 'Error', errorDocument(error));
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
      return withReport(ctx, r.options, 'PullRequestReport', { dryRun: r.options.dryRun === true }, (c) =>
        prCommand(c, r.args, r.options),
      );
    case 'analyze':
      return analyzeCommand(ctx, r.args, r.options);
    case 'apps':
      return appNamesCommand(ctx, r.options);
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
  const mode = o.pr ? 'pr' : o.commit ? 'commit' : 'write';
  return withReport(ctx, o, 'ChangeReport', { command: command.kind, mode, dryRun: o.dryRun === true }, (c) => {
    if (o.pr) return changePr(c, args, o, command);
    return o.commit ? changeCommit(c, args, o, command) : changeCommand(c, args, o, command);
  });
}
