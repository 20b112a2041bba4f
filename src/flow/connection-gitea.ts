import { InputError } from '../errors';
import type { ScmConnection } from '../scm/types';
import type { ConnectionFlags } from './connection';

/**
 * Gitea and Forgejo Actions set GitHub's variables (GITHUB_TOKEN, GITHUB_REPOSITORY,
 * GITHUB_SERVER_URL, GITHUB_API_URL = <server>/api/v1); Forgejo's runner also sets FORGEJO_*
 * twins, read when the GitHub names are absent. Outside Actions: GITEA_TOKEN / GITEA_SERVER_URL, or
 * flags. The API is `<server>/api/v1`; flags win.
 */
export function readGiteaConnection(
  env: Readonly<Record<string, string | undefined>>,
  flags: ConnectionFlags,
): ScmConnection {
  const token = flags.token ?? env.GITHUB_TOKEN ?? env.GITEA_TOKEN ?? env.FORGEJO_TOKEN;
  const repository = flags.repo ?? env.GITHUB_REPOSITORY ?? env.FORGEJO_REPOSITORY;
  const server = (env.GITHUB_SERVER_URL ?? env.FORGEJO_SERVER_URL ?? env.GITEA_SERVER_URL)?.replace(/\/+$/, '');
  const apiUrl = (flags.apiUrl ?? env.GITHUB_API_URL ?? (server ? `${server}/api/v1` : undefined))?.replace(/\/+$/, '');
  if (!token)
    throw new InputError([], 'the Gitea flow needs a token: set GITHUB_TOKEN (or GITEA_TOKEN) or pass --token');
  if (!repository || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository))
    throw new InputError(
      [],
      `the Gitea flow needs the repository as owner/name: set GITHUB_REPOSITORY or pass --repo${repository ? ` (got "${repository}")` : ''}`,
    );
  if (!apiUrl)
    throw new InputError(
      [],
      'the Gitea flow needs the server: pass --api-url https://HOST/api/v1 or set GITHUB_SERVER_URL (or GITEA_SERVER_URL)',
    );
  if (!/^https?:\/\/\S+\/api\/v1$/.test(apiUrl))
    throw new InputError(
      [],
      `--api-url / GITHUB_API_URL must be the Gitea API's http(s) URL ending in /api/v1, e.g. https://gitea.example.com/api/v1 (got "${apiUrl}")`,
    );
  return { forge: 'gitea', token, repository, apiUrl, ...(server ? { serverUrl: server } : {}) };
}
