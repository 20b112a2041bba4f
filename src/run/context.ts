import { SourceFile } from '../io/read-source';
import type { PullRequestEvent } from './report';

/** Everything a command may touch outside the pure core; tests pass their own. */
export interface RunContext {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => Promise<SourceFile[]>;
  /** Told about every PR the GitHub flow opens, updates, merges or closes (the Action's outputs); unset in the CLI. */
  readonly report?: (event: PullRequestEvent) => void;
}

export interface CommonOptions {
  readonly file?: string;
  readonly config?: string;
}
