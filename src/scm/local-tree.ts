import { execFileSync } from 'node:child_process';
import type { CommitRequest } from './types';

/**
 * The blob each changed path has in the request's parent, read from the local checkout (one
 * `git ls-tree`): what a forge's commits API must be told of each file (create, or update/delete
 * naming the blob it replaces), so its commit has the tree the git push would have written.
 */
export function parentBlobs(repo: string, req: CommitRequest): Map<string, string> {
  const paths = req.changes.map((c) => c.path);
  const out = new Map<string, string>();
  if (paths.length === 0) return out;
  const listed = execFileSync(
    'git',
    ['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', req.parent, '--', ...paths],
    {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  for (const line of listed.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [, type, sha] = line.slice(0, tab).split(' ');
    if (type === 'blob') out.set(line.slice(tab + 1), sha);
  }
  return out;
}

/** The file operations of `req` against its parent: deletions of absent files are dropped (git's tree has nothing to drop). */
export function fileOperations(repo: string, req: CommitRequest): FileOperation[] {
  const blobs = parentBlobs(repo, req);
  return req.changes.flatMap((c): FileOperation[] => {
    const blob = blobs.get(c.path);
    if (c.content === null) return blob ? [{ path: c.path, op: 'delete', blob }] : [];
    return [{ path: c.path, op: blob ? 'update' : 'create', content: c.content, ...(blob ? { blob } : {}) }];
  });
}

export interface FileOperation {
  readonly path: string;
  readonly op: 'create' | 'update' | 'delete';
  /** The new UTF-8 content (create, update). */
  readonly content?: string;
  /** The blob it replaces in the parent (update, delete). */
  readonly blob?: string;
}
