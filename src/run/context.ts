import { SourceFile } from '../io/read-source';
import type { Removal } from '../state/lifecycle';

/** Everything a command may touch outside the pure core; tests pass their own. */
export interface RunContext {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => Promise<SourceFile[]>;
}

export interface CommonOptions {
  readonly file?: string;
  readonly config?: string;
  /** Overrides rollgen.yaml's `removal` for every app. */
  readonly removal?: Removal;
}
