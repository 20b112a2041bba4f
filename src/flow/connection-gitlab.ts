import { InputError } from '../errors';
import type { ScmConnection } from '../scm/types';
import type { ConnectionFlags } from './connection';

const PROJECT_PATH = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;

/**
 * GitLab from a GitLab CI job's variables (CI_API_V4_URL, CI_PROJECT_PATH, CI_SERVER_URL) or flags;
 * the token from ROLLGEN_GITLAB_TOKEN or GITLAB_TOKEN. CI_JOB_TOKEN is never taken: GitLab lets the
 * job token reach no merge request endpoint, so a run with it could push branches but never open
 * their merge requests.
 */
export function readGitLabConnection(
  env: Readonly<Record<string, string | undefined>>,
  flags: ConnectionFlags,
): ScmConnection {
  const token = flags.token ?? env.ROLLGEN_GITLAB_TOKEN ?? env.GITLAB_TOKEN;
  if (!token) throw new InputError([], missingToken(env));
  const repository = flags.repo ?? env.CI_PROJECT_PATH;
  if (!repository || !PROJECT_PATH.test(repository))
    throw new InputError(
      [],
      `the GitLab flow needs the project path as group/project (subgroups too: group/sub/project): set CI_PROJECT_PATH or pass --repo${repository ? ` (got "${repository}")` : ''}`,
    );
  const server = env.CI_SERVER_URL?.replace(/\/+$/, '');
  const apiUrl = (flags.apiUrl ?? env.CI_API_V4_URL ?? `${server ?? 'https://gitlab.com'}/api/v4`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(apiUrl))
    throw new InputError([], `--api-url / CI_API_V4_URL must be an http(s) URL (got "${apiUrl}")`);
  const serverUrl = flags.apiUrl !== undefined || !server ? apiUrl.replace(/\/api\/v4$/, '') : server;
  return { token, repository, apiUrl, serverUrl, forge: 'gitlab' };
}

function missingToken(env: Readonly<Record<string, string | undefined>>): string {
  const job = env.CI_JOB_TOKEN
    ? '; CI_JOB_TOKEN is set but cannot be used: GitLab does not let the job token open, update or merge merge requests'
    : '';
  return `the GitLab flow needs a project or group access token with the api scope (role Developer, Maintainer to merge into a protected branch): set it as the masked CI/CD variable ROLLGEN_GITLAB_TOKEN (or GITLAB_TOKEN), or pass --token${job}`;
}
