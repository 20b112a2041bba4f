import { inspect } from 'node:util';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { fetchWithDeadline, retryAfterAsSecondaryLimit } from './bounded';
import { redact } from './errors';
import { RequestMeter } from './meter';
import { processStderr } from '../../io/stdout';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Tuning of the Octokit client; the defaults are what production wants. */
export interface GitHubScmOptions {
  /**
   * Receives Octokit's log lines with the token redacted (the request-log plugin logs each request,
   * headers included, at debug). @default warnings to stderr, everything else dropped
   */
  readonly log?: (level: LogLevel, line: string) => void;
  /** Milliseconds per second of back-off, retry-after and write pacing; tests shrink it. @default 1000 */
  readonly retryUnitMs?: number;
  /** Retries of a request that failed with 5xx or no response. @default 3 */
  readonly retries?: number;
  /** One write request per second, GitHub's advice against secondary rate limits. @default true */
  readonly paceWrites?: boolean;
  /** Retries after a secondary rate limit, each waiting its retry-after. @default 2 */
  readonly secondaryRateRetries?: number;
  /** Longest retry-after (seconds) worth waiting for, primary or secondary. @default 60 */
  readonly maxWaitSeconds?: number;
  /** Milliseconds one attempt may wait for GitHub's answer before it counts as failed (and is retried). @default 15000 (GitHub ends requests that take over 10 s itself) */
  readonly requestTimeoutMs?: number;
  /** Told once when a git push is refused and branches go through the REST API. @default a line on stderr */
  readonly notice?: (line: string) => void;
}

const RollgenOctokit = Octokit.plugin(retry, retryAfterAsSecondaryLimit, throttling);
export type GitHubOctokit = InstanceType<typeof RollgenOctokit>;

/**
 * Statuses the retry plugin must leave alone: the client errors it skips anyway, plus 405/409
 * (merge refused, ref conflict: retrying cannot help) and 429 (rate limits belong to throttling).
 */
const DO_NOT_RETRY = [400, 401, 403, 404, 405, 409, 410, 422, 429, 451];

/** Stands in for Bottleneck's write and notification groups when pacing is off (tests). */
const UNPACED = { key: () => ({ schedule: <T>(_opts: unknown, job: () => Promise<T>) => job() }) };

/** The pacer's clock: the monotonic one in production, a fake in its test. */
export interface PaceClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const MONOTONIC: PaceClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Resolves once the clock reaches `deadline`. A timer alone can fire a millisecond or two early
 * (libuv starts it from the loop's cached time), so it checks and waits again.
 */
async function sleepUntil(clock: PaceClock, deadline: number): Promise<void> {
  for (let wait = deadline - clock.now(); wait > 0; wait = deadline - clock.now()) await clock.sleep(Math.ceil(wait));
}

/**
 * Bottleneck's write group (one write at a time, starts a second apart) with a shorter second: what
 * the throttling plugin does by default, scaled like the back-off when a test shrinks the unit.
 */
export function pacedGroup(unitMs: number, clock: PaceClock = MONOTONIC) {
  let queue: Promise<unknown> = Promise.resolve();
  let lastStart = -Infinity;
  const schedule = <T>(_opts: unknown, job: () => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      await sleepUntil(clock, lastStart + unitMs);
      lastStart = clock.now();
      return job();
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return { key: () => ({ schedule }) };
}

/** The write and notification groups: the plugin's own at the production unit, else scaled or off. */
function writeGroups(options: GitHubScmOptions, unit: number): object {
  if (options.paceWrites === false) return { write: UNPACED, notifications: UNPACED };
  return unit === 1000 ? {} : { write: pacedGroup(unit), notifications: pacedGroup(unit) };
}

export function createOctokit(
  baseUrl: string,
  token: string,
  options: GitHubScmOptions = {},
  meter = new RequestMeter(),
): GitHubOctokit {
  const unit = options.retryUnitMs ?? 1000;
  const maxWait = options.maxWaitSeconds ?? 60;
  const secondaryRetries = options.secondaryRateRetries ?? 2;
  return new RollgenOctokit({
    auth: token,
    baseUrl,
    userAgent: 'rollgen',
    request: { fetch: meter.wrap(fetchWithDeadline(options.requestTimeoutMs ?? 15_000)) },
    log: redactingLog(token, options.log ?? defaultLog),
    retry: { doNotRetry: DO_NOT_RETRY, retries: options.retries ?? 3, retryAfterBaseValue: unit },
    throttle: {
      ...writeGroups(options, unit),
      retryAfterBaseValue: unit,
      // Secondary limits clear within a minute or two: wait as told, a bounded number of times.
      onSecondaryRateLimit: (retryAfter: number, _o: unknown, _k: unknown, retryCount: number) =>
        retryCount < secondaryRetries && retryAfter <= maxWait,
      // The primary limit resets once an hour: worth one wait only when the reset is near.
      onRateLimit: (retryAfter: number, _o: unknown, _k: unknown, retryCount: number) =>
        retryCount === 0 && retryAfter <= maxWait,
    },
  });
}

/** Octokit's logger with every argument rendered to text and the token removed before it leaves. */
function redactingLog(token: string, sink: (level: LogLevel, line: string) => void) {
  const emit =
    (level: LogLevel) =>
    (...args: unknown[]) => {
      const line = args
        .map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 6, breakLength: Infinity })))
        .join(' ');
      sink(level, redact(line, token));
    };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

// Failed requests already become ScmErrors with context; per-request error lines would only repeat them.
function defaultLog(level: LogLevel, line: string): void {
  if (level === 'warn') processStderr(`rollgen: GitHub client: ${line}\n`);
}
