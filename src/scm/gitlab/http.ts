import type { RequestUsage } from '../types';

/**
 * GitLab's REST API v4 over fetch: the token in the PRIVATE-TOKEN header only, every attempt with
 * a deadline, 5xx and 429 retried a bounded number of times (429 after its Retry-After or
 * RateLimit-Reset, when that is within the longest wait), every attempt counted, and the last
 * RateLimit-* headers kept for the flow's budget, as the GitHub client does with x-ratelimit-*.
 */
export interface GitLabHttpOptions {
  /** Milliseconds one attempt may take. @default 15000 */
  readonly requestTimeoutMs?: number;
  /** Milliseconds per second of back-off and Retry-After; tests shrink it. @default 1000 */
  readonly retryUnitMs?: number;
  /** Retries after a 5xx, a 429 or no answer. @default 3 */
  readonly retries?: number;
  /** Longest Retry-After (seconds) worth waiting for. @default 60 */
  readonly maxWaitSeconds?: number;
}

export class GitLabHttpError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly body: unknown,
    readonly headers: Headers | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface GitLabResponse<T> {
  readonly data: T;
  readonly headers: Headers;
}

type Query = Readonly<Record<string, string | number | boolean | undefined>>;

export class GitLabHttp {
  private sent = 0;
  private window: Omit<RequestUsage, 'requests' | 'requestsPerBranch'> = {};

  constructor(
    private readonly apiUrl: string,
    private readonly token: string,
    private readonly options: GitLabHttpOptions = {},
  ) {}

  usage(requestsPerBranch: number): RequestUsage {
    return { requests: this.sent, requestsPerBranch, ...this.window };
  }

  async request<T>(method: string, path: string, query: Query = {}, body?: unknown): Promise<GitLabResponse<T>> {
    const url = new URL(`${this.apiUrl}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    const retries = this.options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(method, url, body);
      const wait = this.retryWait(outcome, attempt, retries);
      if (wait === undefined) {
        if (outcome instanceof GitLabHttpError) throw outcome;
        return outcome as GitLabResponse<T>;
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** Every page of a list, following x-next-page (GitLab's offset pagination), at 100 a page. */
  async pages<T>(path: string, query: Query = {}, stop?: (page: readonly T[]) => boolean): Promise<T[]> {
    const out: T[] = [];
    for (let page: string | null = '1'; page; ) {
      const res: GitLabResponse<T[]> = await this.request<T[]>('GET', path, { ...query, per_page: 100, page });
      out.push(...res.data);
      if (stop?.(res.data)) break;
      page = res.headers.get('x-next-page') || null;
    }
    return out;
  }

  private async attempt(method: string, url: URL, body: unknown): Promise<GitLabResponse<unknown> | GitLabHttpError> {
    this.sent++;
    const timeout = this.options.requestTimeoutMs ?? 15_000;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          'PRIVATE-TOKEN': this.token,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeout),
      });
    } catch (e) {
      const why = e instanceof Error && e.name === 'TimeoutError' ? `no answer within ${timeout / 1000} s` : String(e);
      return new GitLabHttpError(undefined, undefined, undefined, `could not reach GitLab: ${why}`);
    }
    this.readLimits(res.headers);
    const text = await res.text();
    let data: unknown = text;
    try {
      data = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      // GitLab answers JSON; a proxy in front of it may not: keep its text for the message.
    }
    if (res.ok) return { data, headers: res.headers };
    return new GitLabHttpError(res.status, data, res.headers, `${res.status} ${res.statusText}`);
  }

  /** Milliseconds to wait before the next attempt, or undefined: no retry. */
  private retryWait(outcome: GitLabResponse<unknown> | GitLabHttpError, attempt: number, retries: number) {
    if (!(outcome instanceof GitLabHttpError) || attempt >= retries) return undefined;
    const unit = this.options.retryUnitMs ?? 1000;
    const status = outcome.status;
    if (status === 429) {
      const seconds = limitWait(outcome.headers);
      return seconds <= (this.options.maxWaitSeconds ?? 60) ? Math.max(seconds, 1) * unit : undefined;
    }
    if (status === undefined || status >= 500) return 2 ** attempt * unit;
    return undefined;
  }

  private readLimits(headers: Headers): void {
    const num = (name: string) => {
      const v = headers.get(name);
      return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
    };
    const remaining = num('ratelimit-remaining');
    if (remaining === undefined) return;
    const limit = num('ratelimit-limit');
    const reset = num('ratelimit-reset');
    this.window = {
      remaining,
      ...(limit !== undefined ? { limit } : {}),
      ...(reset !== undefined ? { reset: new Date(reset * 1000) } : {}),
    };
  }
}

/** Seconds GitLab asks to wait: Retry-After, else until RateLimit-Reset (a Unix time). */
export function limitWait(headers: Headers | undefined): number {
  const after = Number(headers?.get('retry-after'));
  if (Number.isFinite(after) && after >= 0 && headers?.get('retry-after')) return after;
  const reset = Number(headers?.get('ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, Math.ceil(reset - Date.now() / 1000)) : 60;
}
