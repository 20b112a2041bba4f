import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { processContext, RunContext } from './app/context';
import { RunRequest, run } from './dispatch';

const collect = (value: string, previous: string[]) => [...previous, value];

function stepNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('a step number (0 = stable only)');
  return Number(value);
}

/** The GitHub connection and base; GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL by default. */
const github = (c: Command) =>
  c
    .option('--dry-run', 'print every intended action; change nothing')
    .option('--token <token>', 'GitHub token (default: $GITHUB_TOKEN)')
    .option('--repo <owner/name>', 'repository (default: $GITHUB_REPOSITORY)')
    .option('--api-url <url>', 'API URL, e.g. https://HOST/api/v3 (default: $GITHUB_API_URL)')
    .option('--base <branch>', 'branch the PRs target (default: pr.base in rollgen.yaml, else the branch checked out)');

/** advance/abort/promote/retry: commit the output (local git mode) or, for commands, open their PR. */
function changing(c: Command, pr: boolean): Command {
  c.option('--commit', 'commit the new output with git (local git mode)');
  c.option('--force', 'overwrite output files changed by hand (drift)');
  return pr
    ? github(
        c
          .option('--pr', 'open the PR that does this instead of writing the output')
          .option('--merge', 'with --pr: merge that PR at once'),
      )
    : c;
}

/** Builds the commander program; every action only turns flags into a RunRequest. */
function program(submit: (r: RunRequest) => void): Command {
  const p = new Command('rollgen')
    .description('Progressive delivery for GitOps: render each canary step as manifests.')
    .option('--debug', 'show stack traces')
    .exitOverride();
  const removal = new Option(
    '--removal <mode>',
    'how canary workloads leave: with the routes (one-commit, Argo CD sync waves) or after them (two-commits, Flux)',
  ).choices(['one-commit', 'two-commits']);
  const common = (c: Command) =>
    c
      .option('-f, --file <file>', 'read the source manifests from a file; - for stdin')
      .option('-c, --config <file>', 'rollgen.yaml to use')
      .addOption(removal);
  common(
    p
      .command('plan')
      .argument('[app...]', 'SOURCE [OUT], or app names from rollgen.yaml')
      .option('--json', 'print JSON')
      .description('print every step of each rollout'),
  ).action((args, o) => submit({ command: 'plan', args, options: o }));
  common(
    p
      .command('render')
      .argument('[app...]')
      .option('--step <n>', 'step to render (0 = stable only)', stepNumber)
      .description('print the manifests of one step; writes nothing'),
  ).action((args, o) => submit({ command: 'render', args, options: o }));
  common(p.command('validate').argument('[app...]').description('check specs and cross-app rules')).action((args, o) =>
    submit({ command: 'validate', args, options: o }),
  );
  for (const [name, what] of [
    ['advance', 'write the next state into OUT'],
    ['abort', 'route everything to stable and remove the canary'],
    ['retry', 'restart an aborted rollout at step 1'],
  ] as const) {
    changing(common(p.command(name).argument('[app...]').description(what)), name !== 'advance').action((args, o) =>
      submit({ command: name, args, options: o }),
    );
  }
  changing(
    common(
      p
        .command('promote')
        .argument('[app...]')
        .option('--full', 'skip the remaining steps')
        .description('move one step ignoring the gate, or promote fully'),
    ),
    true,
  ).action((args, o) => submit({ command: 'promote', args, options: o }));
  github(
    common(
      p
        .command('pr')
        .argument('[app...]', 'app names from rollgen.yaml (default: all)')
        .description("GitHub flow: open, update and merge the PR of each app's next step"),
    ),
  ).action((args, o) => submit({ command: 'pr', args, options: o }));
  common(
    p
      .command('status')
      .argument('[app...]')
      .option('--json', 'print JSON')
      .description('show where each rollout stands'),
  ).action((args, o) => submit({ command: 'status', args, options: o }));
  common(p.command('simulate').argument('[app...]').description('evaluate the routing of a step for one request'))
    .option('--step <n>', 'step (default: the current state)', stepNumber)
    .option('--header <k=v>', 'request header (repeatable)', collect, [])
    .option('--cookie <k=v>', 'request cookie (repeatable)', collect, [])
    .option('--query <k=v>', 'query parameter (repeatable)', collect, [])
    .option('--host <host>', 'request host')
    .option('--path <path>', 'request path', '/')
    .action((args, o) => submit({ command: 'simulate', args, options: o }));
  common(
    p
      .command('analyze')
      .argument('[app...]')
      .description('run the analysis gating a step now and print its measurements'),
  )
    .option('--step <n>', 'step (default: the current step)', stepNumber)
    .option('--json', 'print the records as JSON')
    .option('--no-wait', 'measure back to back instead of waiting out intervals and initial delays')
    .action((args, o) => submit({ command: 'analyze', args, options: o }));
  return p;
}

/** Entry point used by bin/rollgen; returns the exit status. */
export async function main(argv: readonly string[], ctx: RunContext = processContext()): Promise<number> {
  let request: RunRequest | undefined;
  const p = program((r) => (request = r));
  p.configureOutput({ writeOut: (s) => ctx.stdout(s), writeErr: (s) => ctx.stderr(s) });
  try {
    await p.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    throw e;
  }
  if (!request) return 0;
  return run(request, ctx, p.opts().debug === true);
}
