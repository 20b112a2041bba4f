import { InputError } from '../errors';
import { ScmConnection } from '../scm/types';
import { readGiteaConnection } from './connection-gitea';
import { readGitLabConnection } from './connection-gitlab';
import { chooseForge } from './forge';

export interface ConnectionFlags {
  readonly token?: string;
  readonly repo?: string;
  readonly apiUrl?: string;
  readonly forge?: string;
}

/**
 * The forge (src/flow/forge.ts) and how to reach it; for GitHub: GITHUB_TOKEN, GITHUB_REPOSITORY
 * and GITHUB_API_URL as a GitHub Actions job has them; flags win.
 */
export function readConnection(
  env: Readonly<Record<string, string | undefined>>,
  flags: ConnectionFlags,
): ScmConnection {
  const forge = chooseForge(env, flags);
  if (forge === 'gitlab') return readGitLabConnection(env, flags);
  if (forge === 'gitea') return readGiteaConnection(env, flags);
  const token = flags.token ?? env.GITHUB_TOKEN;
  const repository = flags.repo ?? env.GITHUB_REPOSITORY;
  const apiUrl = (flags.apiUrl ?? env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '');
  if (!token) throw new InputError([], 'the GitHub flow needs a token: set GITHUB_TOKEN or pass --token');
  if (!repository || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository)) {
    throw new InputError(
      [],
      `the GitHub flow needs the repository as owner/name: set GITHUB_REPOSITORY or pass --repo${repository ? ` (got "${repository}")` : ''}`,
    );
  }
  if (!/^https?:\/\//.test(apiUrl))
    throw new InputError([], `--api-url / GITHUB_API_URL must be an http(s) URL (got "${apiUrl}")`);
  return { token, repository, apiUrl };
}

/** Runs `work` and removes the token from any error it throws, so no path can print it. */
export async function withoutToken<T>(token: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof Error && token.length > 0) {
      e.message = e.message.split(token).join('***');
      if (e.stack) e.stack = e.stack.split(token).join('***');
    }
    throw e;
  }
}
