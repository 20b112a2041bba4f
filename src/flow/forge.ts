import { InputError } from '../errors';

/** The code hosts rollgen's flow speaks to. */
export type Forge = 'github' | 'gitlab' | 'gitea';

const FORGES: readonly Forge[] = ['github', 'gitlab', 'gitea'];

/**
 * Which forge this run talks to: `--forge`, else ROLLGEN_FORGE, else the CI it runs in (GitLab CI
 * sets GITLAB_CI=true; Gitea's act_runner sets GITEA_ACTIONS=true and Forgejo's runner sets both
 * FORGEJO_ACTIONS=true and GITEA_ACTIONS=true), else GitHub. An unknown name is refused.
 */
export function chooseForge(env: Readonly<Record<string, string | undefined>>, flags: { forge?: string }): Forge {
  const named = flags.forge ?? env.ROLLGEN_FORGE;
  if (named !== undefined) {
    const forge = named.trim().toLowerCase();
    if ((FORGES as readonly string[]).includes(forge)) return forge as Forge;
    const where = flags.forge !== undefined ? '--forge' : 'ROLLGEN_FORGE';
    throw new InputError([], `${where} must be github, gitlab or gitea (Forgejo is gitea) (got "${named}")`);
  }
  if (env.GITLAB_CI === 'true') return 'gitlab';
  if (env.GITEA_ACTIONS === 'true' || env.FORGEJO_ACTIONS === 'true') return 'gitea';
  return 'github';
}
