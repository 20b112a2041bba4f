import { SourceFile } from '../io/read-source';

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
}
