/** The Action's inputs as GitHub passes them (INPUT_<NAME> variables), and the CLI argv they become. Pure. */
import { parseShard } from '../../src/app/shards';
import { isAppName } from '../../src/model/app-name';
import { suggestName } from '../../src/suggest';

export const COMMANDS = ['pr', 'abort', 'promote', 'retry', 'validate', 'status'] as const;
export type ActionCommand = (typeof COMMANDS)[number];

/** The inputs of action.yml (test/github/action-io.test.ts holds the two together). */
export const INPUT_NAMES = ['token', 'config', 'command', 'app', 'wave', 'dry-run', 'full', 'merge', 'shard'] as const;

type Flag = 'dry-run' | 'full' | 'merge';

/** The commands each true/false input is a flag of; the CLI has no such flag on the others. */
const FLAG_COMMANDS: Readonly<Record<Flag, readonly ActionCommand[]>> = {
  'dry-run': ['pr', 'abort', 'promote', 'retry'],
  full: ['promote'],
  merge: ['abort', 'promote', 'retry'],
};

export interface ActionInputs {
  readonly token: string;
  readonly config: string;
  readonly command: ActionCommand;
  /** App names from rollgen.yaml; empty = every app. */
  readonly apps: readonly string[];
  readonly dryRun: boolean;
  /** promote: skip the remaining steps (promote --full). */
  readonly full: boolean;
  /** abort/promote/retry: merge the PR at once instead of waiting for a review. */
  readonly merge: boolean;
  /** pr and status: `K/N`, one shard of the apps for a job of a matrix; undefined: every app. */
  readonly shard?: string;
  /** abort, promote, retry: every target of this wave of rollgen.yaml (one PR for the wave). */
  readonly wave?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

// The runner's variable for an input (actions/runner, Handler.AddInputsToEnvironment): INPUT_ and the
// name with spaces as `_`, upper-cased; hyphens stay, so `dry-run` arrives as INPUT_DRY-RUN.
const variableOf = (name: string) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
const input = (env: Env, name: string) => (env[variableOf(name)] ?? '').trim();

/** Reads and checks the inputs; a problem is returned as text (the Action reports it and exits 2). */
export function parseInputs(env: Env): ActionInputs | string {
  const unknown = unknownInputs(env);
  if (unknown) return unknown;
  const command = input(env, 'command') || 'pr';
  if (!(COMMANDS as readonly string[]).includes(command))
    return `input "command" must be one of ${COMMANDS.join(', ')}; got "${command}"`;
  const flags = {} as Record<Flag, boolean>;
  for (const name of Object.keys(FLAG_COMMANDS) as Flag[]) {
    const value = input(env, name).toLowerCase() || 'false';
    if (value !== 'true' && value !== 'false') return `input "${name}" must be true or false; got "${value}"`;
    flags[name] = value === 'true';
    const problem = flags[name] ? flagProblem(name, command as ActionCommand) : undefined;
    if (problem) return problem;
  }
  const config = input(env, 'config') || 'rollgen.yaml';
  if (config.startsWith('-')) return `input "config": "${config}" is a path of rollgen.yaml, not a flag`;
  const apps = input(env, 'app')
    .split(/[\s,]+/)
    .filter((a) => a.length > 0);
  const notApp = apps.find((a) => !isAppName(a));
  if (notApp !== undefined)
    return `input "app": "${notApp}" is not an app name (lower-case letters, digits and "-", as in rollgen.yaml); separate names with spaces or commas`;
  const wave = input(env, 'wave');
  const waveProblem = wave ? checkWave(wave, command as ActionCommand) : undefined;
  if (waveProblem) return waveProblem;
  const shard = input(env, 'shard');
  const shardProblem = shard ? checkShard(shard, command as ActionCommand, apps) : undefined;
  if (shardProblem) return shardProblem;
  return {
    token: input(env, 'token') || env.GITHUB_TOKEN || '',
    config,
    command: command as ActionCommand,
    apps,
    dryRun: flags['dry-run'],
    full: flags.full,
    merge: flags.merge,
    ...(shard ? { shard } : {}),
    ...(wave ? { wave } : {}),
  };
}

/** `wave`: a wave name of rollgen.yaml (a DNS label, so never a flag), for the commands that change a wave. */
function checkWave(wave: string, command: ActionCommand): string | undefined {
  if (command !== 'abort' && command !== 'promote' && command !== 'retry')
    return `input "wave" applies to abort, promote and retry, not to ${command}`;
  if (!isAppName(wave))
    return `input "wave": "${wave}" is not a wave name (lower-case letters, digits and "-", as in rollgen.yaml waves:)`;
  return undefined;
}

/** `shard`: K/N, for pr and status, instead of naming apps (the CLI refuses both together as well). */
function checkShard(shard: string, command: ActionCommand, apps: readonly string[]): string | undefined {
  if (!parseShard(shard))
    return `input "shard" takes K/N, the K-th of N shards with 1 <= K <= N, e.g. \${{ matrix.shard }}/4 (got "${shard}")`;
  if (command !== 'pr' && command !== 'status') return `input "shard" applies to pr and status, not to ${command}`;
  if (apps.length > 0) return 'inputs "shard" and "app" do not go together: a shard is a part of every app; give one';
  return undefined;
}

/**
 * GitHub passes every `with:` key as a variable, known or not, and only warns "Unexpected
 * input(s)": a misspelt `dry_run: true` would make a real, writing run. Refused, naming the input meant.
 */
function unknownInputs(env: Env): string | undefined {
  const known = new Set(INPUT_NAMES.map(variableOf));
  const problems = Object.keys(env)
    .filter((variable) => variable.startsWith('INPUT_') && !known.has(variable))
    .map((variable) => {
      const typed = variable.slice('INPUT_'.length).toLowerCase();
      const meant = suggestName(typed, INPUT_NAMES);
      return `input "${typed}" is not an input of rollgen${meant ? ` (did you mean "${meant}"?)` : ''}`;
    });
  if (problems.length === 0) return undefined;
  return `${problems.join('; ')}; the inputs are ${INPUT_NAMES.join(', ')} (an INPUT_* variable in env: counts as an input too)`;
}

/** As the CLI refuses `rollgen pr --merge`: the input does not apply to the command. */
function flagProblem(name: Flag, command: ActionCommand): string | undefined {
  const applies = FLAG_COMMANDS[name];
  if (applies.includes(command)) return undefined;
  const list = applies.length === 1 ? applies[0] : `${applies.slice(0, -1).join(', ')} and ${applies.at(-1)}`;
  return `input "${name}" applies to ${list}, not to ${command} (rollgen ${command} has no --${name}); remove it or set it to false`;
}

/**
 * The argv for the CLI's main(): the Action runs exactly what a person would type. abort, promote
 * and retry act through a pull request (--pr), as everything the Action changes does, and status
 * reads GitHub (--pr): the Action always has a token. The app names come after `--`, so none is
 * ever read as a flag, and the config path is joined to its flag (`--config=PATH`) for the same reason.
 */
export function buildArgv(inputs: ActionInputs): string[] {
  const argv: string[] = [inputs.command, `--config=${inputs.config}`];
  if (inputs.command !== 'pr' && inputs.command !== 'validate') argv.push('--pr');
  // parseInputs let each flag through only for the commands that have it; the CLI refuses any other.
  if (inputs.merge) argv.push('--merge');
  if (inputs.full) argv.push('--full');
  if (inputs.dryRun) argv.push('--dry-run');
  if (inputs.shard) argv.push(`--shard=${inputs.shard}`);
  if (inputs.wave) argv.push(`--wave=${inputs.wave}`);
  return inputs.apps.length > 0 ? [...argv, '--', ...inputs.apps] : argv;
}
