import { Diagnostic, formatDiagnostic, printable, sortDiagnostics } from './diagnostics';

/**
 * Invalid user input: specs, manifests, config, flags. Exit status 2. Diagnostics are sorted by
 * place unless `ordered` says they already are in cause-before-consequence order (see orderByStage).
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[], summary?: string, ordered = false) {
    const sorted = ordered ? diagnostics : sortDiagnostics(diagnostics);
    super(summary ?? sorted.map(formatDiagnostic).join('\n'));
    this.diagnostics = sorted;
  }
}

/** A request that is well-formed but cannot be done in the current state (e.g. abort with nothing in progress). Exit 1. */
export class StateError extends Error {
  override readonly name = 'StateError';
}

/** Reading or writing files failed. Exit 1. */
export class IoError extends Error {
  override readonly name = 'IoError';
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${printable(path)}: ${message}`, options);
  }
}

/**
 * What a refused code-host request means to the PR flow, whatever host and status code said it:
 * the thing to create already exists (a concurrent run made it), the PR's head moved since its
 * checks were read, the host will not merge it (conflicts, reviews, checks), a git push was refused
 * (the client falls back to the API), the rate limit held after the bounded waits, or anything else.
 */
export type ScmOutcome =
  | 'already-exists'
  | 'head-moved'
  | 'not-mergeable'
  /** Not merged now: the host merges it by itself once its pipeline succeeds (auto-merge is set). */
  | 'merge-scheduled'
  | 'push-refused'
  | 'rate-limited'
  | 'failed';

/**
 * The code host refused or failed a request after retries. `action` says what rollgen was doing
 * ("open the PR for echoserver step 2"); `outcome` is what the flow branches on; `status` is the
 * HTTP status when there was one, for the message only. The message never contains the token. Exit 1.
 */
export class ScmError extends Error {
  override readonly name = 'ScmError';
  readonly outcome: ScmOutcome;
  constructor(
    readonly action: string,
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown; outcome?: ScmOutcome },
  ) {
    super(`${action}: ${message}${status ? ` (HTTP ${status})` : ''}`, options);
    this.outcome = options?.outcome ?? 'failed';
  }
}

/** Where a provider failed: the app, the rollout (or TrafficRouting), the state being rendered and the provider id. */
export interface ProviderSite {
  readonly app: string;
  readonly rollout: string;
  readonly state: string;
  readonly provider: string;
}

/**
 * A traffic provider threw while rendering one rollout's state: a gap between its check and its
 * render, or a bug in it. Named by app, rollout, state and provider, never an anonymous crash. Exit 1.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly site: ProviderSite,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(
      `app ${site.app}, rollout ${site.rollout}, ${site.state}: provider ${site.provider} failed: ${message}`,
      options,
    );
  }
}

/** The one place that maps error classes to exit codes. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof AnalysisVerdictError) return { Failed: 1, Inconclusive: 3, Error: 4, Running: 5 }[error.phase];
  return error instanceof InputError ? 2 : 1;
}

/** The one place that turns an error into what the user reads on stderr. */
export function describeError(error: unknown, debug: boolean): string {
  if (debug && error instanceof Error && error.stack) return error.stack;
  const text = errorText(error);
  return isTyped(error) && !(error instanceof InputError) ? `error: ${text}` : text;
}

/**
 * The same without the "error: " stderr prefix: the `message` of a `kind: Error` document, which
 * already says it is an error, reads one way whichever error it holds.
 */
export function errorText(error: unknown): string {
  if (error instanceof InputError) return error.message;
  if (!isTyped(error)) {
    const text = error instanceof Error ? error.message : String(error);
    return `internal error (a bug in rollgen; rerun with --debug and report it): ${text}`;
  }
  return error.message.split('\n').map(printable).join('\n');
}

const isTyped = (error: unknown): error is Error =>
  error instanceof Error && error.name !== 'Error' && !(error instanceof TypeError);

/** A stored analysis record that cannot be read back (wrong version, edited, truncated). Exit 1. */
export class AnalysisRecordError extends Error {
  override readonly name = 'AnalysisRecordError';
}

/** `rollgen analyze` ended with an analysis that did not pass. Exit 1 (Failed), 3 (Inconclusive), 4 (Error) or 5 (never completes). */
export class AnalysisVerdictError extends Error {
  override readonly name = 'AnalysisVerdictError';
  constructor(
    /** Running: a step analysis that never completes (a metric without count). */
    readonly phase: 'Failed' | 'Inconclusive' | 'Error' | 'Running',
    message: string,
  ) {
    super(message);
  }
}
