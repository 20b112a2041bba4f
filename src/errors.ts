import { Diagnostic, formatDiagnostic, sortDiagnostics } from './diagnostics';

/** Invalid user input: specs, manifests, config, flags. Exit status 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[], summary?: string) {
    const sorted = sortDiagnostics(diagnostics);
    super(summary ?? sorted.map(formatDiagnostic).join('\n'));
    this.diagnostics = sorted;
  }
}

/** A request that is well-formed but cannot be done in the current state (e.g. abort with nothing in progress). Exit 1. */
export class StateError extends Error {
  override readonly name = 'StateError';
}

/** A traffic provider failed on a given step; keeps the provider and step for the message. Exit 1. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly provider: string,
    readonly step: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`provider ${provider}, step ${step}: ${message}`, options);
  }
}

/** Reading or writing files failed. Exit 1. */
export class IoError extends Error {
  override readonly name = 'IoError';
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${message}`, options);
  }
}

/**
 * The code host (GitHub) refused or failed a request after retries. `action` says what rollgen was
 * doing ("open the PR for echoserver step 2"); `status` is the HTTP status when there was one.
 * The message never contains the token. Exit 1.
 */
export class ScmError extends Error {
  override readonly name = 'ScmError';
  constructor(
    readonly action: string,
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${action}: ${message}${status ? ` (HTTP ${status})` : ''}`, options);
  }
}

/** A bug in rollgen itself. */
export class InternalError extends Error {
  override readonly name = 'InternalError';
}

/** The one place that maps error classes to exit codes. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof AnalysisVerdictError) return { Failed: 1, Inconclusive: 3, Error: 4 }[error.phase];
  return error instanceof InputError ? 2 : 1;
}

/** The one place that turns an error into what the user reads. */
export function describeError(error: unknown, debug: boolean): string {
  if (debug && error instanceof Error && error.stack) return error.stack;
  if (error instanceof InputError) return error.message;
  if (
    error instanceof InternalError ||
    !(error instanceof Error) ||
    error.name === 'Error' ||
    error instanceof TypeError
  ) {
    const text = error instanceof Error ? error.message : String(error);
    return `internal error (a bug in rollgen; rerun with --debug and report it): ${text}`;
  }
  return `error: ${error.message}`;
}

/** A stored analysis record that cannot be read back (wrong version, edited, truncated). Exit 1. */
export class AnalysisRecordError extends Error {
  override readonly name = 'AnalysisRecordError';
}

/** `rollgen analyze` ended with an analysis that did not pass. Exit 1 (Failed), 3 (Inconclusive) or 4 (Error). */
export class AnalysisVerdictError extends Error {
  override readonly name = 'AnalysisVerdictError';
  constructor(
    readonly phase: 'Failed' | 'Inconclusive' | 'Error',
    message: string,
  ) {
    super(message);
  }
}
