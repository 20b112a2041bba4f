import { InputError } from './errors';

/** Every option a command may get; each command's own type names the ones it has. */
export interface AnyOptions {
  readonly file?: string;
  readonly pr?: boolean;
  readonly commit?: boolean;
  readonly merge?: boolean;
  readonly dryRun?: boolean;
  readonly offline?: boolean;
  readonly token?: string;
  readonly repo?: string;
  readonly apiUrl?: string;
  readonly forge?: string;
  readonly base?: string;
}

/** The flags that name the GitHub connection, by option key. */
const CONNECTION = [
  ['token', '--token'],
  ['repo', '--repo'],
  ['apiUrl', '--api-url'],
  ['forge', '--forge'],
  ['base', '--base'],
] as const;

/**
 * The checks of option combinations, in one place for every command (the CLI and the Action both
 * come through here): an option the command would not use is refused rather than dropped, and a
 * value is checked where it is given, whether or not this run reaches the code that reads it.
 */
export function checkOptions(command: string, o: AnyOptions): void {
  checkFile(command, o.file);
  const reachesGitHub = command === 'pr' || o.pr === true;
  const given = CONNECTION.filter(([key]) => o[key] !== undefined).map(([, flag]) => flag);
  if (!reachesGitHub && given.length > 0)
    throw new InputError(
      [],
      `${command}: ${listed(given)} ${given.length > 1 ? 'go' : 'goes'} with --pr (reading or writing GitHub); add --pr, or drop ${given.length > 1 ? 'them' : 'it'}`,
    );
  if (command !== 'pr' && command !== 'status' && !o.pr && (o.merge || o.dryRun || o.offline))
    throw new InputError([], `${command}: --merge, --dry-run and --offline go with --pr`);
  if (o.offline && o.token !== undefined)
    throw new InputError([], `${command} --offline reads nothing from GitHub, so --token is not used; drop it`);
  // GitLab projects sit in groups and subgroups (group/sub/project); each forge's reader checks its own form.
  if (o.repo !== undefined && !/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/.test(o.repo))
    throw new InputError([], `--repo takes the repository as owner/name (got "${o.repo}")`);
  if (o.apiUrl !== undefined && !/^https?:\/\/\S+$/.test(o.apiUrl))
    throw new InputError([], `--api-url must be an http(s) URL, e.g. https://HOST/api/v3 (got "${o.apiUrl}")`);
}

/** `-f` reads stdin (`-f -`) only: a path is not read, so it is refused rather than quietly replaced. (`pr` has no -f.) */
function checkFile(command: string, file: string | undefined): void {
  if (file !== undefined && file !== '-')
    throw new InputError(
      [],
      `-f ${file}: -f reads the source manifests from stdin only (-f -); pipe the file in (rollgen ${command} -f - < ${file}) or give the app's directory as SOURCE`,
    );
}

const listed = (flags: readonly string[]) =>
  flags.length > 1 ? `${flags.slice(0, -1).join(', ')} and ${flags[flags.length - 1]}` : flags.join('');
