import * as path from 'path';

/** Keeps each git command line well under the OS argument limit; most repos need one call. */
const MAX_PATH_BYTES = 100_000;

/** A path as git must match it: `*`, `?` and `[` in a directory name are not wildcards. */
export const literal = (p: string): string => `:(literal)${p}`;

/** `p` as a repository path: relative to `root`, with forward slashes; the root itself is `.`. */
export function repoPath(root: string, p: string): string {
  return path.relative(root, p).split(path.sep).join('/') || '.';
}

/** Directories of `dirs` (repository paths) that hold `file`, the nearest first. */
export function* dirsHolding<T>(dirs: ReadonlyMap<string, T>, file: string): Generator<T> {
  for (let dir = file; ; dir = dir.slice(0, dir.lastIndexOf('/'))) {
    const hit = dirs.get(dir);
    if (hit !== undefined) yield hit;
    if (!dir.includes('/')) break;
  }
  if (dirs.has('.')) yield dirs.get('.')!;
}

/** `paths` split so that no git command line carries more than ~100 KB of them. */
export function pathBatches(paths: readonly string[]): string[][] {
  const out: string[][] = [];
  let size = MAX_PATH_BYTES;
  for (const p of paths) {
    if (size + p.length + 1 > MAX_PATH_BYTES) {
      out.push([]);
      size = 0;
    }
    out[out.length - 1].push(p);
    size += p.length + 1;
  }
  return out;
}
