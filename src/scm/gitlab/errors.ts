import { ScmError } from '../../errors';
import { redact } from '../github/errors';
import { GitLabHttpError, limitWait } from './http';

/**
 * A GitLab failure in GitLab's words: what was being done, what the token lacks (its `api` scope,
 * a role), the project path when it is not found, the rate limit's reset. Never the token.
 */
export function toScmError(action: string, error: unknown, token: string, project: string): ScmError {
  if (error instanceof ScmError) return error;
  if (!(error instanceof GitLabHttpError)) throw error;
  const status = error.status;
  const said = messageOf(error.body) ?? error.message;
  return new ScmError(action, status, redact(explain(error, said, project), token), {
    ...(status === 409 && /already exists/i.test(said) ? { outcome: 'already-exists' as const } : {}),
    ...(status === 429 ? { outcome: 'rate-limited' as const } : {}),
  });
}

function explain(error: GitLabHttpError, said: string, project: string): string {
  switch (error.status) {
    case undefined:
      return said;
    case 401:
      return `GitLab rejected the token (${said}): it is expired, revoked or mistyped; set ROLLGEN_GITLAB_TOKEN to a project or group access token with the api scope`;
    case 403:
      return /insufficient_scope/.test(said)
        ? `the token lacks the api scope (${said}); create a project access token with the api scope (it includes write_repository for the git push)`
        : `GitLab refused (${said}): the token's role cannot do this; give the access token the Developer role (Maintainer to merge into a protected branch)`;
    case 404:
      return `not found (${said}); check that the project ${project} exists (--repo / CI_PROJECT_PATH) and that the token's bot user is a member of it`;
    case 429:
      return `GitLab's rate limit held after the bounded retries (${said}); it resets in ${limitWait(error.headers)} s: run again later`;
    default:
      return said;
  }
}

/** GitLab's `message` (a string, a list, or field -> errors) or OAuth's `error`/`error_description`. */
export function messageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.length > 0 ? body.slice(0, 500) : undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const { message, error, error_description: description } = body as Record<string, unknown>;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  if (typeof message === 'object' && message !== null)
    return Object.entries(message)
      .map(([field, list]) => `${field} ${Array.isArray(list) ? list.join(', ') : String(list)}`)
      .join('; ');
  if (typeof error === 'string') return typeof description === 'string' ? `${error}: ${description}` : error;
  return undefined;
}
