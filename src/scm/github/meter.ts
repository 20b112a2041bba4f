import type { RequestUsage } from '../types';

/**
 * Counts every HTTP request the client sends (retries included: each costs GitHub's quota) and
 * keeps what the last answer's rate-limit headers said, so the flow can plan a run within budget.
 */
export class RequestMeter {
  private requests = 0;
  private window: Omit<RequestUsage, 'requests' | 'requestsPerBranch'> = {};

  /** A fetch that is metered; `base` does the work. */
  wrap(base: typeof fetch): typeof fetch {
    return async (input, init) => {
      this.requests++;
      const response = await base(input, init);
      this.read(response.headers);
      return response;
    };
  }

  usage(requestsPerBranch: number): RequestUsage {
    return { requests: this.requests, requestsPerBranch, ...this.window };
  }

  private read(headers: Headers): void {
    const num = (name: string) => {
      const v = headers.get(name);
      return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
    };
    const remaining = num('x-ratelimit-remaining');
    if (remaining === undefined) return;
    const limit = num('x-ratelimit-limit');
    const reset = num('x-ratelimit-reset');
    const resource = headers.get('x-ratelimit-resource');
    // Search and GraphQL have windows of their own; rollgen's requests are all the core REST one.
    if (resource && resource !== 'core') return;
    this.window = {
      remaining,
      ...(limit !== undefined ? { limit } : {}),
      ...(reset !== undefined ? { reset: new Date(reset * 1000) } : {}),
      ...(resource ? { resource } : {}),
    };
  }
}
