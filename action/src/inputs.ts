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
  /** promote: skip the remaining steps (promote --full). */
  readonly full: boolean;
  /** abort/promote/retry: merge the PR at once instead of waiting for a review. */
  readonly merge: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

// GitHub upper-cases the name and keeps hyphens: `dry-run` arrives as INPUT_DRY-RUN.
const input = (env: Env, name: string) => (env[`INPUT_${name.toUpperCase().replace(/ /g, '_')}`] ?? '').trim();

/** Reads and checks the inputs; a problem is returned as text (the Action reports it and exits 2). */
export function parseInputs(env: Env): ActionInputs | string {
  const command = input(env, 'command') || 'pr';
  if (!(COMMANDS as readonly string[]).includes(command))
    return `input "command" must be one of ${COMMANDS.join(', ')}; got "${command}"`;
  const flags: Record<string, boolean> = {};
  for (const name of ['dry-run', 'full', 'merge']) {
    const value = input(env, name).toLowerCase() || 'false';
    if (value !== 'true' && value !== 'false') return `input "${name}" must be true or false; got "${value}"`;
    flags[name] = value === 'true';
  }
  return {
    token: input(env, 'token') || env.GITHUB_TOKEN || '',
    config: input(env, 'config') || 'rollgen.yaml',
    command: command as ActionCommand,
    apps: input(env, 'app')
      .split(/[\s,]+/)
      .filter((a) => a.length > 0),
    dryRun: flags['dry-run'],
    full: flags.full,
    merge: flags.merge,
  };
}

/**
 * The argv for the CLI's main(): the Action runs exactly what a person would type. abort, promote
 * and retry act through a pull request (--pr), as everything the Action changes does.
 */
export function buildArgv(inputs: ActionInputs): string[] {
  const argv = [inputs.command, ...inputs.apps, '--config', inputs.config];
  const viaPr = inputs.command === 'abort' || inputs.command === 'promote' || inputs.command === 'retry';
  if (viaPr) argv.push('--pr');
  if (viaPr && inputs.merge) argv.push('--merge');
  if (inputs.command === 'promote' && inputs.full) argv.push('--full');
  if ((inputs.command === 'pr' || viaPr) && inputs.dryRun) argv.push('--dry-run');
  return argv;
}
