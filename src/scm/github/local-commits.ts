import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommitRequest } from '../types';

/**
 * Step commits built in the checkout's object database with git plumbing: blobs by hash-object,
 * each tree in a temporary index (GIT_INDEX_FILE) read from the parent's tree, then commit-tree.
 * The user's work tree, index and refs are never touched; only new objects are added.
 */

/** Who makes rollgen's step commits, on both paths (git push and the REST fallback). */
export const COMMIT_IDENTITY = { name: 'rollgen', email: 'rollgen@users.noreply.github.com' } as const;

/** Author and committer of a step commit: rollgen, dated as its parent, so equal inputs make the same commit. */
export interface CommitSignature {
  readonly name: string;
  readonly email: string;
  /** ISO 8601 with offset, as GitHub's git data API takes it. */
  readonly date: string;
}

const ZERO = '0000000000000000000000000000000000000000';

/** The committer date of `sha` in `repo`, as the signature both paths give a commit on top of it. */
export function signatureOn(repo: string, sha: string): CommitSignature {
  const date = git(repo, ['show', '-s', '--format=%cI', sha]).trim();
  return { ...COMMIT_IDENTITY, date };
}

/** Builds one commit per request (all on the same parent in practice), returning their shas in order. */
export function buildCommits(repo: string, reqs: readonly CommitRequest[]): string[] {
  if (reqs.length === 0) return [];
  const scratch = mkdtempSync(join(tmpdir(), 'rollgen-commit-'));
  try {
    const blobs = writeBlobs(repo, scratch, reqs);
    const bases = new Map<string, { index: string; sig: CommitSignature }>();
    return reqs.map((req, i) => {
      const base = bases.get(req.parent) ?? {
        index: readBase(repo, scratch, req.parent, bases.size),
        sig: signatureOn(repo, req.parent),
      };
      bases.set(req.parent, base);
      const index = join(scratch, `index-${i}`);
      copyFileSync(base.index, index);
      return commitTree(repo, index, req, blobs, base.sig);
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every new file content written as a blob by one hash-object; content → blob sha. */
function writeBlobs(repo: string, scratch: string, reqs: readonly CommitRequest[]): Map<string, string> {
  const contents = [...new Set(reqs.flatMap((r) => r.changes.flatMap((c) => (c.content === null ? [] : [c.content]))))];
  const files = contents.map((content, i) => {
    const file = join(scratch, `blob-${i}`);
    writeFileSync(file, content, 'utf8');
    return file;
  });
  if (files.length === 0) return new Map();
  const shas = git(repo, ['hash-object', '-w', '--no-filters', '--stdin-paths'], files.join('\n') + '\n')
    .trim()
    .split('\n');
  return new Map(contents.map((c, i) => [c, shas[i]]));
}

/** An index file holding the parent's tree, copied for each commit on that parent. */
function readBase(repo: string, scratch: string, parent: string, n: number): string {
  const index = join(scratch, `base-${n}`);
  git(repo, ['read-tree', `${parent}^{tree}`], undefined, { GIT_INDEX_FILE: index });
  return index;
}

function commitTree(
  repo: string,
  index: string,
  req: CommitRequest,
  blobs: ReadonlyMap<string, string>,
  sig: CommitSignature,
): string {
  const env = { GIT_INDEX_FILE: index };
  // REST's tree entries are regular files (100644); a deletion is mode 0 with the zero id.
  const info = req.changes
    .map((c) => (c.content === null ? `0 ${ZERO}\t${c.path}` : `100644 ${blobs.get(c.content)}\t${c.path}`))
    .join('\n');
  if (info) git(repo, ['update-index', '--index-info'], info + '\n', env);
  const tree = git(repo, ['write-tree'], undefined, env).trim();
  return git(repo, ['commit-tree', '--no-gpg-sign', tree, '-p', req.parent, '-F', '-'], req.message, {
    GIT_AUTHOR_NAME: sig.name,
    GIT_AUTHOR_EMAIL: sig.email,
    GIT_AUTHOR_DATE: sig.date,
    GIT_COMMITTER_NAME: sig.name,
    GIT_COMMITTER_EMAIL: sig.email,
    GIT_COMMITTER_DATE: sig.date,
  }).trim();
}

function git(repo: string, args: readonly string[], input?: string, env: Record<string, string> = {}): string {
  return execFileSync('git', [...args], {
    cwd: repo,
    input,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
}
