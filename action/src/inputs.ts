/** The Action's inputs as GitHub passes them (INPUT_<NAME> variables), and the CLI argv they become. Pure. */

export const COMMANDS = ['pr', 'abort', 'promote', 'retry', 'validate', 'status'] as const;
export type ActionCommand = (typeof COMMANDS)[number];

export interface ActionInputs {
  readonly token: string;
  readonly config: string;
  readonly command: ActionCommand;
  /** App names from rollgen.yaml; empty = every app. */
  readonly apps: readonly string[];
  readonly dryRun: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

// GitHub upper-cases the name and keeps hyphens: `dry-run` arrives as INPUT_DRY-RUN.
const input = (env: Env, name: string) => (env[`INPUT_${name.toUpperCase().replace(/ /g, '_')}`] ?? '').trim();

/** Reads and checks the inputs; a problem is returned as text (the Action reports it and exits 2). */
export function parseInputs(env: Env): ActionInputs | string {
  const command = input(env, 'command') || 'pr';
  if (!(COMMANDS as readonly string[]).includes(command)) return `input "command" must be one of ${COMMANDS.join(', ')}; got "${command}"`;
  const dryRun = input(env, 'dry-run').toLowerCase() || 'false';
  if (dryRun !== 'true' && dryRun !== 'false') return `input "dry-run" must be true or false; got "${dryRun}"`;
  return {
    token: input(env, 'token') || env.GITHUB_TOKEN || '',
    config: input(env, 'config') || 'rollgen.yaml',
    command: command as ActionCommand,
    apps: input(env, 'app').split(/[\s,]+/).filter((a) => a.length > 0),
    dryRun: dryRun === 'true',
  };
}

/**
 * The argv for the CLI's main(): the Action runs exactly what a person would type. Only `pr`
 * takes --dry-run; abort, promote and retry reach GitHub through the flow once it lands, and this
 * is the one place to change if they get their own flags.
 */
export function buildArgv(inputs: ActionInputs): string[] {
  const argv = [inputs.command, ...inputs.apps, '--config', inputs.config];
  if (inputs.command === 'pr' && inputs.dryRun) argv.push('--dry-run');
  return argv;
}
