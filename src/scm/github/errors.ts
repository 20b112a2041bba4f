import { ScmError } from '../../errors';

const REDACTED = '***';

// GitHub's tokens are 40+ characters; redacting a shorter string (a placeholder such as "x")
// would only mangle every message that happens to contain those letters.
const MIN_SECRET_LENGTH = 8;

/** Replaces every occurrence of the token (and its URL-encoded form) so no message or log line can carry it. */
export function redact(text: string, token: string): string {
  if (token.length < MIN_SECRET_LENGTH) return text;
  let out = text.split(token).join(REDACTED);
  const encoded = encodeURIComponent(token);
  if (encoded !== token) out = out.split(encoded).join(REDACTED);
  return out;
}

interface HttpFailure {
  readonly status?: number;
  readonly message?: string;
  readonly response?: {
    readonly status?: number;
    readonly headers?: Record<string, string | undefined>;
    readonly data?: unknown;
  };
}

/**
 * Converts whatever Octokit threw into an ScmError that says what rollgen was doing. Only the
 * response's message and GitHub's validation errors are kept (not the request, whose headers hold
 * the token); the text is redacted anyway, because a server may echo anything back.
 */
export function toScmError(action: string, error: unknown, token: string, forbidden?: string): ScmError {
  if (error instanceof ScmError) return error;
  const failure = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as HttpFailure;
  const status = failure.response?.status;
  // GitHub says "A pull request already exists for ..." / "Reference already exists" with 422.
  const exists = status === 422 && /already exists/i.test(messageOf(error));
  const text = explain(failure, status);
  // A 403 that is no rate limit (explain rewrote those) is a permission the token lacks.
  const denied = status === 403 && forbidden && text === responseText(failure) ? `${text}; ${forbidden}` : text;
  const limited = text !== responseText(failure) && (status === 403 || status === 429);
  return new ScmError(action, status, redact(denied, token), {
    ...(exists ? { outcome: 'already-exists' as const } : {}),
    ...(limited || /secondary rate limit/i.test(text) ? { outcome: 'rate-limited' as const } : {}),
  });
}

function explain(failure: HttpFailure, status: number | undefined): string {
  if (status === undefined) return `could not reach GitHub: ${failure.message ?? 'unknown error'}`;
  const headers = failure.response?.headers ?? {};
  if ((status === 403 || status === 429) && headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    const when = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : 'an unknown time';
    return `the GitHub API rate limit for this token is used up; it resets at ${when}`;
  }
  const text = responseText(failure);
  if ((status === 429 || status === 403) && headers['retry-after'] && !/secondary rate limit/i.test(text))
    return `GitHub asked to wait ${headers['retry-after']} s (retry-after) and was still refusing after the bounded retries; run again later (${text})`;
  if (/secondary rate limit/i.test(text))
    return `GitHub's secondary rate limit held after the bounded retries; run again later (${text})`;
  if (status === 401) return `GitHub rejected the token (${text}); check the token input or GITHUB_TOKEN`;
  if (status === 404) return `not found (${text}); check the repository name and that the token can read it`;
  return text;
}

const responseText = (failure: HttpFailure) =>
  responseMessage(failure.response?.data) ?? failure.message ?? 'request failed';

function responseMessage(data: unknown): string | undefined {
  if (typeof data === 'string') return data.length > 0 ? data.slice(0, 500) : undefined;
  if (typeof data !== 'object' || data === null) return undefined;
  const { message, errors } = data as { message?: unknown; errors?: unknown };
  if (typeof message !== 'string') return undefined;
  if (!Array.isArray(errors) || errors.length === 0) return message;
  const details = errors.map((e) =>
    typeof e === 'object' && e !== null && 'message' in e ? String(e.message) : JSON.stringify(e),
  );
  return `${message}: ${details.join('; ')}`;
}

/** Status of an Octokit failure, for the few places that branch on it (404, 422, 405, 409). */
export function statusOf(error: unknown): number | undefined {
  const status = (error as HttpFailure | undefined)?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The response's message, for branching on GitHub's wording ("Reference already exists"). */
export function messageOf(error: unknown): string {
  return responseMessage((error as HttpFailure | undefined)?.response?.data) ?? '';
}
