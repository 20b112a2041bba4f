import type { Octokit } from '@octokit/core';

/**
 * Two gaps the retry and throttling plugins leave, closed at the transport:
 * - a request GitHub never answers would hang the run: every attempt gets a deadline, and a missed
 *   deadline is a failed attempt the retry plugin retries like a 5xx, then an ScmError naming the call;
 * - a 429 (or 403) carrying only `retry-after` (no "secondary rate limit" wording, no exhausted
 *   x-ratelimit-remaining) is not recognised by the throttling plugin: it is labelled a secondary
 *   limit so the plugin's rules apply (wait as told, bounded retries, bounded wait).
 */

/** A fetch whose every call fails after `timeoutMs` without an answer. */
export function fetchWithDeadline(timeoutMs: number, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await base(input, { ...init, signal });
    } catch (e) {
      if (deadline.aborted) throw new Error(`GitHub did not answer within ${timeoutMs / 1000} s`, { cause: e });
      throw e;
    }
  };
}

interface LimitedError {
  status?: number;
  message: string;
  response?: { headers?: Record<string, string | undefined> };
}

/** Octokit plugin, registered between retry (inside) and throttling (outside) so throttling sees the label. */
export function retryAfterAsSecondaryLimit(octokit: Octokit): void {
  octokit.hook.wrap('request', async (request, options) => {
    try {
      return await request(options);
    } catch (e) {
      const error = e as LimitedError;
      const headers = error.response?.headers ?? {};
      const limited = error.status === 429 || error.status === 403;
      if (
        limited &&
        headers['retry-after'] &&
        headers['x-ratelimit-remaining'] !== '0' &&
        !/\bsecondary rate\b/i.test(error.message)
      )
        error.message = `${error.message} (secondary rate limit: retry-after ${headers['retry-after']} s)`;
      throw e;
    }
  });
}
