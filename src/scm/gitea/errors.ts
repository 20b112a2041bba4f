import { ScmError, ScmOutcome } from '../../errors';
import { redact } from '../github/errors';
import { GiteaHttpError } from './http';

/** The token scopes Gitea checks per API group (Settings → Applications → token scopes). */
export type GiteaScope =
  | 'write:repository'
  | 'write:issue'
  | 'read:repository'
  | 'read:issue'
  | 'write:issue and write:repository';

/**
 * What Gitea's answer means, in Gitea's words: a 401 is the token itself, a 403 the scope (or
 * the repository permission) the request needs, a 404 the repository or the token's access to it,
 * a 429 a limit in front of Gitea (Gitea has none of its own).
 */
export function toScmError(
  action: string,
  error: unknown,
  token: string,
  scope: GiteaScope,
  outcome?: ScmOutcome,
): ScmError {
  if (error instanceof ScmError) return error;
  if (!(error instanceof GiteaHttpError)) throw error;
  const { status } = error;
  const text = explain(error, scope);
  const limited = status === 429;
  return new ScmError(action, status, redact(text, token), {
    ...(limited ? { outcome: 'rate-limited' as const } : outcome ? { outcome } : {}),
  });
}

function explain(error: GiteaHttpError, scope: GiteaScope): string {
  const said = error.message;
  switch (error.status) {
    case undefined:
      return said;
    case 401:
      return `Gitea rejected the token (${said}); check GITHUB_TOKEN / GITEA_TOKEN or --token`;
    case 403:
      return `Gitea refused it (${said}): the token needs the ${scope} scope and write access to the repository (an Actions job token: the workflow's permissions)`;
    case 404:
      return `not found (${said}); check the repository name and that the token (scope ${scope.replaceAll('write', 'read')}) can read it`;
    case 429: {
      const after = error.headers.get('retry-after');
      return `Gitea (or a proxy in front of it) limits requests${after ? ` and asked to wait ${after} s` : ''}; run again later (${said})`;
    }
    default:
      return said;
  }
}
