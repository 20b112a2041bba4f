import { redact } from '../github/errors';
import { RequestMeter } from '../github/meter';

/** Tuning of the Gitea client; the defaults are what production wants. */
export interface GiteaScmOptions {
  /** Milliseconds per second of back-off and retry-after; tests shrink it. @default 1000 */
  readonly retryUnitMs?: number;
  /** Retries of a request that failed with 5xx or no answer. @default 3 */
  readonly retries?: number;
  /** Longest retry-after (seconds) worth waiting for. @default 60 */
  readonly maxWaitSeconds?: number;
  /** Milliseconds one attempt may wait for an answer before it counts as failed. @default 15000 */
  readonly requestTimeoutMs?: number;
  /** Told once when a git push is refused. @default a line on stderr */
  readonly notice?: (line: string) => void;
}

/** A request Gitea answered with an error status, or never answered (status undefined). */
export class GiteaHttpError extends Error {
  constructor(
    readonly status: number | undefined,
    message: string,
    readonly headers: Headers = new Headers(),
  ) {
    super(message);
  }
}

export interface Query {
  readonly [key: string]: string | number | undefined;
}

/** One answer: the parsed JSON body and the headers (Link, X-Total-Count). */
export interface Answer<T> {
  readonly data: T;
  readonly headers: Headers;
}

/**
 * Plain fetch against `<server>/api/v1` with Gitea's `Authorization: token` header. Every attempt
 * counts; 5xx and unanswered requests are retried (bounded, with back-off), except for writes
 * that are not idempotent (`once`), whose callers check what landed. A 429 with Retry-After (from
 * a proxy: Gitea itself sends no rate-limit headers) is waited for once when short enough.
 */
export class GiteaHttp {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly meter: RequestMeter,
    private readonly options: GiteaScmOptions = {},
  ) {}

  async request<T>(
    method: string,
    path: string,
    req: { query?: Query; body?: unknown; once?: boolean } = {},
  ): Promise<Answer<T>> {
    const url = this.url(path, req.query);
    const retries = req.once ? 0 : (this.options.retries ?? 3);
    const unit = this.options.retryUnitMs ?? 1000;
    let waited = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt<T>(method, url, req.body);
      } catch (e) {
        if (!(e instanceof GiteaHttpError)) throw e;
        const wait = Number(e.headers.get('retry-after'));
        if (e.status === 429 && !waited && Number.isFinite(wait) && wait <= (this.options.maxWaitSeconds ?? 60)) {
          waited = true;
          await sleep(wait * unit);
          attempt--;
          continue;
        }
        const transient = e.status === undefined || e.status >= 500;
        if (!transient || attempt >= retries) throw e;
        await sleep(2 ** attempt * unit);
      }
    }
  }

  /** Every page of a list, following Link rel="next" (Gitea caps `limit` at its MAX_RESPONSE_ITEMS, 50 by default). */
  /** `stop` sees each page that has a next one and may end the scan there. */
  async pages<T>(path: string, query: Query, stop?: (page: readonly T[]) => boolean): Promise<T[]> {
    const out: T[] = [];
    let next: string | undefined = this.url(path, { ...query, page: 1 });
    while (next) {
      const { data, headers }: Answer<T[]> = await this.request<T[]>('GET', next);
      out.push(...data);
      next = data.length > 0 ? nextLink(headers.get('link')) : undefined;
      if (next && stop?.(data)) next = undefined;
    }
    return out;
  }

  private url(path: string, query: Query = {}): string {
    const url = new URL(/^https?:/.test(path) ? path : `${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  private async attempt<T>(method: string, url: string, body: unknown): Promise<Answer<T>> {
    const timeout = this.options.requestTimeoutMs ?? 15_000;
    let response: Response;
    try {
      response = await this.meter.wrap(fetch)(url, {
        method,
        headers: {
          authorization: `token ${this.token}`,
          accept: 'application/json',
          'user-agent': 'rollgen',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeout),
      });
    } catch (e) {
      const why = e instanceof Error && e.name === 'TimeoutError' ? `no answer within ${timeout / 1000} s` : String(e);
      throw new GiteaHttpError(undefined, redact(`could not reach Gitea: ${why}`, this.token));
    }
    const text = await response.text();
    if (!response.ok) throw new GiteaHttpError(response.status, redact(errorText(text), this.token), response.headers);
    return { data: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
  }
}

/** Gitea's APIError is `{message, url}`; validation errors add `errors`. */
function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: unknown };
    const details = Array.isArray(body.errors) && body.errors.length > 0 ? `: ${body.errors.join('; ')}` : '';
    if (typeof body.message === 'string' && body.message) return body.message + details;
  } catch {
    // not JSON (a proxy's page): its text, shortened
  }
  return text.trim().slice(0, 300) || 'request failed';
}

function nextLink(link: string | null): string | undefined {
  return link
    ?.split(',')
    .find((part) => /rel="next"/.test(part))
    ?.match(/<([^>]+)>/)?.[1];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
