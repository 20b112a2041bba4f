import { InputError } from '../errors';

/** The code hosts rollgen's flow speaks to; each has its adapter under src/scm/. */
export type Forge = 'github' | 'gitlab' | 'gitea';

const FORGES: readonly Forge[] = ['github', 'gitlab', 'gitea'];

/**
 * Which forge this run talks to: `--forge`, else ROLLGEN_FORGE, else the CI it runs in (GitLab CI
 * sets GITLAB_CI=true; Gitea and Forgejo Actions set GITEA_ACTIONS / FORGEJO_ACTIONS=true beside
 * the GitHub-compatible variables, so they are looked at before the GitHub default).
 */
export function chooseForge(env: Readonly<Record<string, string | undefined>>, flags: { forge?: string }): Forge {
  const [given, where] = flags.forge !== undefined ? [flags.forge, '--forge'] : [env.ROLLGEN_FORGE, 'ROLLGEN_FORGE'];
  if (given !== undefined && given !== '') {
    const forge = FORGES.find((f) => f === given.trim().toLowerCase());
    if (!forge) throw new InputError([], `${where} must be github, gitlab or gitea (got "${given}")`);
    return forge;
  }
  if (env.GITLAB_CI === 'true') return 'gitlab';
  if (env.GITEA_ACTIONS === 'true' || env.FORGEJO_ACTIONS === 'true') return 'gitea';
  return 'github';
}
