import { GitRunner } from '../io/git';
import { SourceFile, readStdin } from '../io/read-source';
import { outputPending, processStderr, processStdout } from '../io/stdout';
import type { Removal } from '../state/lifecycle';
import { ScmClient, ScmConnection } from '../scm/types';
import type { DeferredApp, PullRequestEvent, PullRequestPreview } from './report';
import type { Ticker } from '../io/watch';
import type { PendingWrite } from './next-output';

/** Everything a command may touch outside the pure core; tests pass their own. */
export interface RunContext {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => Promise<SourceFile[]>;
  /** The edges of the PR flow and local git mode; unset members fall back to the process (src/flow/edges.ts). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => Date;
  readonly scm?: (connection: ScmConnection) => ScmClient;
  readonly git?: GitRunner;
  /** Told about every PR the GitHub flow opens, updates, merges or closes (the Action's outputs); unset in the CLI. */
  readonly report?: (event: PullRequestEvent) => void;
  /** Told about each app the GitHub flow leaves for the next run (its request budget is spent); unset in the CLI. */
  readonly deferred?: (d: DeferredApp) => void;
  /** `rollgen pr` with waves: the fleet matrix as Markdown, for the Action's job summary (docs/fleet.md). */
  readonly fleet?: (markdown: string) => void;
  /** Told about the PR each app would get (`--dry-run --offline`); set by the machine-readable report. */
  readonly preview?: (p: PullRequestPreview) => void;
  /** How `status --watch` waits between rounds and whether stdout is a terminal; unset: this process (src/io/watch.ts). */
  readonly ticker?: Ticker;
  /** Told about every output written by advance/abort/promote/retry (the machine-readable report). */
  readonly written?: (w: PendingWrite) => void;
}

export interface CommonOptions {
  readonly file?: string;
  readonly config?: string;
  /** Overrides rollgen.yaml's `removal` for every app. */
  readonly removal?: Removal;
  /** `--target T`: target T of each named app with targets: (all apps when none is named). */
  readonly target?: string;
  /** `--wave W`: every target of wave W (docs/fleet.md). */
  readonly wave?: string;
}

/** This process as a RunContext (its directory, stdout, stderr and stdin); the shells override what they capture. */
export function processContext(over: Partial<RunContext> = {}): RunContext {
  return {
    cwd: process.cwd(),
    // A closed pipe (`rollgen ... | head -1`) drops output instead of dying on EPIPE.
    stdout: processStdout,
    stderr: processStderr,
    readStdin: () => readStdin(process.stdin),
    ...over,
  };
}

/**
 * The end of a CLI process: exit now instead of tearing the heap down first (1-3 ms of a render),
 * unless output still waits in a stream; then the process ends once it is written, as usual.
 */
export function finishProcess(code: number): void {
  process.exitCode = code;
  if (!outputPending()) process.exit(code);
}
