import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { processContext, RunContext } from './app/context';
import { RunRequest, run } from './dispatch';
import { version } from '../package.json';
import { OUTPUT_FORMATS, errorDocument, printDocument } from './app/output-format';
import { InputError } from './errors';
import { suggestName } from './suggest';
import type { Shell } from './completion';

/** `rollgen completion SHELL` is answered here: it needs the program, not an app. */
type CliRequest = RunRequest | { readonly command: 'completion'; readonly shell: string };

const collect = (value: string, previous: string[]) => [...previous, value];

function stepNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('a step number (0 = stable only)');
  return Number(value);
}

function seconds(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new InvalidArgumentError('a number of seconds above 0');
  return Number(value);
}

/** The one output option of every command that prints state: --json, or -o json|yaml (text by default). */
function printing(c: Command): Command {
  return c
    .option('--json', 'print JSON (the same as -o json)')
    .addOption(
      new Option('-o, --output <format>', 'output format; json and yaml follow schemas/output/').choices(
        OUTPUT_FORMATS,
      ),
    );
}

/** The GitHub connection; GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL by default. */
const connection = (c: Command) =>
  c
    .option('--token <token>', 'GitHub token (default: $GITHUB_TOKEN)')
    .option('--repo <owner/name>', 'repository (default: $GITHUB_REPOSITORY)')
    .option('--api-url <url>', 'API URL, e.g. https://HOST/api/v3 (default: $GITHUB_API_URL)')
    .option(
      '--forge <forge>',
      'code host: github, gitlab or gitea (default: $ROLLGEN_FORGE, else from the CI: GITLAB_CI, GITEA_ACTIONS)',
    );

/** The GitHub connection and base; GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL by default. */
const github = (c: Command) =>
  connection(
    c
      .option('--dry-run', 'print every intended action; change nothing')
      .option(
        '--offline',
        'with --dry-run: no token, no network; print the title and body of each PR from the checkout',
      ),
  ).option('--base <branch>', 'branch the PRs target (default: pr.base in rollgen.yaml, else the branch checked out)');

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

type Submit = (r: CliRequest) => void;

/** `--shard K/N`: one part of the apps per job of an Actions matrix (docs/github-action.md). */
const shardOption = () =>
  new Option('--shard <K/N>', 'only the K-th of N parts of the apps; coupled apps stay in one part (Actions matrix)');

const removal = () =>
  new Option(
    '--removal <mode>',
    'how canary workloads leave: with the routes (one-commit, Argo CD sync waves) or after them (two-commits, Flux)',
  ).choices(['one-commit', 'two-commits']);

/** -f, -c; commands whose output depends on the removal mode add --removal (withRemoval). */
const common = (c: Command) =>
  c
    .addOption(fromStdin())
    .option('-c, --config <file>', 'rollgen.yaml to use')
    .option('--target <name>', "one target of each named app's targets: (docs/fleet.md)")
    .option(
      '--wave <name>',
      'every target of that wave of rollgen.yaml waves:; abort/promote/retry: one PR or commit for the wave (docs/fleet.md)',
    );

/** `-f -` is the only form: help shows it as written, not as a placeholder `<->`. */
function fromStdin(): Option {
  const o = new Option('-f, --file <->', 'read the source manifests from stdin, e.g. -f - < all.yaml');
  o.flags = '-f, --file -';
  return o;
}

/**
 * The two ways to name what a command works on, in its usage line and help: app names from
 * rollgen.yaml (none: every app), or a source directory and its output without rollgen.yaml.
 */
const apps = (c: Command, outOptional = true) =>
  c
    .argument('[app...]', `app names from rollgen.yaml (default: all), or SOURCE ${outOptional ? '[OUT]' : 'OUT'}`)
    .usage(`[options] [app...]\n       rollgen ${c.name()} [options] SOURCE ${outOptional ? '[OUT]' : 'OUT'}`);

const withRemoval = (c: Command) => common(c).addOption(removal());

/** advance, abort and retry differ in name and description only. */
const stateChange =
  (name: 'advance' | 'abort' | 'retry', what: string) =>
  (p: Command, submit: Submit): Command =>
    changing(printing(withRemoval(apps(p.command(name), false).description(what))), name !== 'advance').action(
      (args, o) => submit({ command: name, args, options: o }),
    );

/** Each subcommand, in the order help lists them; every action only turns flags into a RunRequest. */
const COMMANDS: Readonly<Record<string, (p: Command, submit: Submit) => Command>> = {
  plan: (p, submit) =>
    printing(common(apps(p.command('plan')).description('print every step of each rollout'))).action((args, o) =>
      submit({ command: 'plan', args, options: o }),
    ),
  render: (p, submit) =>
    withRemoval(
      apps(p.command('render'))
        .option('--step <n>', 'step to render (0 = stable only)', stepNumber)
        .description('print the manifests of one step; writes nothing'),
    ).action((args, o) => submit({ command: 'render', args, options: o })),
  validate: (p, submit) =>
    printing(common(apps(p.command('validate')).description('check specs and cross-app rules'))).action((args, o) =>
      submit({ command: 'validate', args, options: o }),
    ),
  advance: stateChange('advance', "write each app's next step into its output"),
  abort: stateChange('abort', 'route everything to stable and remove the canary'),
  retry: stateChange('retry', 'restart an aborted rollout at step 1'),
  promote: (p, submit) =>
    changing(
      printing(
        withRemoval(
          apps(p.command('promote'), false)
            .option('--full', 'skip the remaining steps')
            .description('move one step ignoring the gate, or promote fully'),
        ),
      ),
      true,
    ).action((args, o) => submit({ command: 'promote', args, options: o })),
  pr: (p, submit) =>
    printing(
      github(
        // No -f: the GitHub flow works on the apps of rollgen.yaml.
        p
          .command('pr')
          .argument('[app...]', 'app names from rollgen.yaml (default: all)')
          .description("GitHub flow: open, update and merge the PR of each app's next step")
          .option('-c, --config <file>', 'rollgen.yaml to use')
          .addOption(removal())
          .addOption(shardOption()),
      ),
    ).action((args, o) => submit({ command: 'pr', args, options: o })),
  status: (p, submit) =>
    connection(
      printing(
        common(
          apps(p.command('status'))
            .option('--watch [seconds]', 'refresh every N seconds (default 2) until Ctrl-C', seconds)
            .option('--pr', "read each app's open PR and the live step's health and analysis from GitHub")
            .addOption(shardOption())
            .description('show where each rollout stands'),
        ),
      ),
    ).action((args, o) => submit({ command: 'status', args, options: o })),
  simulate: (p, submit) =>
    printing(
      common(apps(p.command('simulate')).description('evaluate the routing of a step for one request'))
        .option('--step <n>', 'step (default: the current state)', stepNumber)
        .option('--header <k=v>', 'request header (repeatable)', collect, [])
        .option('--cookie <k=v>', 'request cookie (repeatable)', collect, [])
        .option('--query <k=v>', 'query parameter (repeatable)', collect, [])
        .option('--host <host>', "request host (default: the routes' host when they have one)")
        .option('--path <path>', "request path (default: the routes' path when they have one, else /)"),
    ).action((args, o) => submit({ command: 'simulate', args, options: o })),
  analyze: (p, submit) =>
    printing(
      common(apps(p.command('analyze')).description('run the analysis gating a step now and print its measurements')),
    )
      .option('--step <n>', 'step (default: the current step)', stepNumber)
      .option('--no-wait', 'measure back to back instead of waiting out intervals and initial delays')
      .action((args, o) => submit({ command: 'analyze', args, options: o })),
  completion: (p, submit) =>
    p
      .command('completion')
      .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
      .description('print the shell completion script')
      // What the scripts run on Tab: the app names of rollgen.yaml, one a line (src/run/app-names-command.ts).
      .addOption(new Option('--apps', 'print the app names of rollgen.yaml').hideHelp())
      .action((shell: string, o: { apps?: boolean }) =>
        submit(o.apps ? { command: 'apps', args: [], options: {} } : { command: 'completion', shell }),
      ),
};

/**
 * The commander program. With `only`, the root and that one subcommand: a run of `rollgen render`
 * parses exactly as with the whole program but does not build the other ten (3% of a cold render).
 * Root help, the version, "did you mean" and completion need every command: they get the whole one.
 */
export function program(submit: Submit, only?: string): Command {
  const p = new Command('rollgen')
    .description('Progressive delivery for GitOps: render each canary step as manifests.')
    .version(version, '-V, --version', 'print the version of rollgen')
    .option('--debug', 'show stack traces')
    .exitOverride()
    .addHelpText('after', () => examplesHelp('rollgen'));
  for (const [name, add] of Object.entries(COMMANDS))
    if (only === undefined || name === only) add(p, submit).addHelpText('after', () => examplesHelp(name));
  return p;
}

/** The one subcommand a run needs, when its first argument names one that stands alone (not completion). */
function commandOf(argv: readonly string[]): string | undefined {
  const first = argv[0];
  return first !== undefined && first !== 'completion' && Object.hasOwn(COMMANDS, first) ? first : undefined;
}

/** Shown after each command's --help: the common ways to call it. */
const EXAMPLES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  // After `rollgen --help`: a first session, start to finish (each command's --help has its own).
  rollgen: [
    ['rollgen plan apps/web', 'every step of the rollout in apps/web, without rollgen.yaml'],
    ['rollgen advance apps/web deploy/web', 'write the next step into deploy/web'],
    ['rollgen status', 'where each app of rollgen.yaml stands, and what to run next'],
    ['rollgen simulate web --header x-canary=always', 'where such a request goes now'],
    ['rollgen pr', "GitHub flow: open or merge the PR of every app's next step"],
  ],
  plan: [
    ['rollgen plan', 'every app of rollgen.yaml'],
    ['rollgen plan apps/web', 'one app directory, no rollgen.yaml needed'],
    ['rollgen plan web --json', 'the plan of app web as JSON'],
  ],
  render: [
    ['rollgen render web --step 2', 'the manifests of step 2 of app web'],
    ['kustomize build apps/web | rollgen render -f - --step 1', 'read the manifests from stdin'],
  ],
  validate: [
    ['rollgen validate', 'every app of rollgen.yaml and the rules across apps'],
    ['rollgen validate apps/web', 'one app directory'],
    ['rollgen validate -o json', 'the result, warnings at file:line:col, as JSON'],
  ],
  advance: [
    ['rollgen advance web', "write app web's next step into its output"],
    ['rollgen advance apps/web deploy/web', 'SOURCE OUT without rollgen.yaml'],
    ['rollgen advance --commit', 'every app, one git commit each'],
    ['rollgen advance web --json', 'what moved (states before and after) as JSON'],
  ],
  abort: [
    ['rollgen abort web', 'route everything to stable now'],
    ['rollgen abort web --pr --merge', 'the same through a merged PR'],
  ],
  retry: [
    ['rollgen retry web', 'restart an aborted rollout at step 1'],
    ['rollgen retry web --pr', 'open the PR that restarts it'],
  ],
  promote: [
    ['rollgen promote web', 'the next step without waiting for the gate'],
    ['rollgen promote web --full --pr', 'skip the remaining steps, through a PR'],
  ],
  pr: [
    ['rollgen pr', "open or update the PR of every app's next step"],
    ['rollgen pr web --dry-run', 'print what it would do; change nothing'],
    ['rollgen pr --json', 'the PRs opened, updated, merged and closed, as JSON'],
    ['rollgen pr --dry-run --offline', 'the title and body of each PR, without a token or network'],
  ],
  status: [
    ['rollgen status', 'where each rollout of rollgen.yaml stands'],
    ['rollgen status web --watch', 'refresh every 2 seconds until Ctrl-C (--watch 10: every 10)'],
    ['rollgen status web --pr', "also read web's open PR, health and analysis from GitHub"],
    ['rollgen status web -o yaml', 'the same for app web, as YAML (--json: JSON)'],
  ],
  simulate: [
    ['rollgen simulate web --step 1', 'where a plain request goes in step 1'],
    ['rollgen simulate web --header x-canary=always --path /api', 'a request with a header, on /api'],
    ['rollgen simulate web --step 2 --json', 'the shares of Services and pods as JSON'],
  ],
  analyze: [
    ['rollgen analyze web', "run the analysis gating app web's current step"],
    ['rollgen analyze web --step 2 --no-wait --json', 'measure step 2 at once, as JSON'],
  ],
  completion: [
    ['source <(rollgen completion bash)', 'bash, this shell'],
    [
      'mkdir -p ~/.zfunc && rollgen completion zsh > ~/.zfunc/_rollgen',
      'zsh; ~/.zshrc: fpath=(~/.zfunc $fpath) before compinit',
    ],
    ['rollgen completion fish > ~/.config/fish/completions/rollgen.fish', 'fish'],
  ],
};

function examplesHelp(command: string): string {
  const examples = EXAMPLES[command] ?? [];
  if (examples.length === 0) return '';
  return ['', 'Examples:', ...examples.map(([line, what]) => `  $ ${line}\n      ${what}`)].join('\n');
}

/** bin/rollgen's last step (src/app/context.ts). */
export { finishProcess as finish } from './app/context';

/** Entry point used by bin/rollgen; returns the exit status. */
export async function main(argv: readonly string[], ctx: RunContext = processContext()): Promise<number> {
  let request: CliRequest | undefined;
  let usageError = '';
  const p = program((r) => (request = r), commandOf(argv));
  // Subcommands copied their output settings when created: configure each, so `CMD --help` goes to ctx too.
  for (const c of [p, ...p.commands])
    c.showSuggestionAfterError(false).configureOutput({
      writeOut: (s) => ctx.stdout(s),
      writeErr: (s) => ctx.stderr(s),
      outputError: (s, write) => write((usageError = withSuggestion(c, s))),
    });
  try {
    await p.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.exitCode === 0) return 0;
    usageErrorDocument(argv, usageError, ctx);
    return 2;
  }
  if (!request) return 0;
  if (request.command === 'completion') return completion(p, request.shell, ctx);
  return run(request, ctx, p.opts().debug === true);
}

/**
 * Commander's unknown command or option, with rollgen's one "did you mean" rule (src/suggest.ts)
 * instead of commander's own, so `shpo`, `paln` and `--josn` are answered alike.
 */
function withSuggestion(c: Command, message: string): string {
  const unknown = /^error: unknown (command|option) '([^']+)'/.exec(message);
  if (!unknown) return message;
  const [, what, typed] = unknown;
  const known =
    what === 'command'
      ? c.commands.map((sub) => sub.name())
      : [...c.options, ...(c.parent?.options ?? [])].flatMap((o) => (o.long ? [o.long] : []));
  const near = typed.startsWith('--')
    ? suggestName(
        typed.slice(2),
        known.map((k) => k.replace(/^--/, '')),
      )
    : suggestName(typed, known);
  if (!near) return message;
  return `${message.trimEnd()}\n(Did you mean ${what === 'option' ? `--${near.replace(/^--/, '')}` : near}?)\n`;
}

/** Under --json or -o json|yaml a usage error is a `kind: Error` document too, as every other error (docs/output.md). */
function usageErrorDocument(argv: readonly string[], message: string, ctx: RunContext): void {
  const format = machineFormat(argv);
  if (!format || !message) return;
  const error = new InputError([], message.trim().replace(/^error: /, ''));
  printDocument(ctx, format, 'Error', errorDocument(error));
}

/** The format asked for on a command line commander refused: its options are not parsed, so read them here. */
function machineFormat(argv: readonly string[]): 'json' | 'yaml' | undefined {
  let format: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === '--json') format ??= 'json';
    const value = /^(?:-o|--output)=?(.*)$/.exec(arg);
    if (value) format = value[1] || argv[i + 1];
  });
  return format === 'json' || format === 'yaml' ? format : undefined;
}

async function completion(p: Command, shell: string, ctx: RunContext): Promise<number> {
  // Loaded on demand: no other command needs it. Commander already refused a shell not in SHELLS.
  const { completionScript } = await import('./completion');
  ctx.stdout(completionScript(p, shell as Shell));
  return 0;
}
