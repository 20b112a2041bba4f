import { execFileSync } from 'child_process';
import { IoError } from '../errors';

/** Runs git with `args` in `cwd` and returns its stdout; the one place rollgen starts git. */
export type GitRunner = (args: readonly string[], cwd: string) => string;

export const runGit: GitRunner = (args, cwd) => {
  try {
    return execFileSync('git', [...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    const why = (err.stderr ?? '').trim() || err.message;
    throw new IoError(cwd, `git ${args[0]} failed: ${why}`, { cause: e });
  }
};

/** The work tree's top directory, or undefined when `cwd` is not in a git work tree. */
export function gitTopLevel(git: GitRunner, cwd: string): string | undefined {
  try {
    return git(['rev-parse', '--show-toplevel'], cwd).trim();
  } catch {
    return undefined;
  }
}
