import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommitRequest } from '../types';

/**
 * Step commits built in the checkout's object database: blobs, trees and commits written as git
 * objects (`git hash-object -w`), the trees computed here from the parent's (`git ls-tree`). A few
 * git starts for any number of branches, where a temporary index per commit costs three each. The
 * user's work tree, index and refs are never touched; only new objects are added.
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

/** The committer date of `sha` in `repo`, as the signature both paths give a commit on top of it. */
export function signatureOn(repo: string, sha: string): CommitSignature {
  const date = git(repo, ['show', '-s', '--format=%cI', sha]).trim();
  return { ...COMMIT_IDENTITY, date };
}

interface Entry {
  readonly mode: string;
  readonly sha: string;
}
/** Directory path ('' for the root) → its entries by name. */
type Dirs = Map<string, Map<string, Entry>>;

const TREE_MODE = '40000';

/** Builds one commit per request, returning their shas in order. */
export function buildCommits(repo: string, reqs: readonly CommitRequest[]): string[] {
  if (reqs.length === 0) return [];
  const scratch = mkdtempSync(join(tmpdir(), 'rollgen-commit-'));
  try {
    const blobs = writeObjects(repo, scratch, 'blob', [...new Set(reqs.flatMap(contentsOf))].map(utf8));
    const blobOf = new Map([...new Set(reqs.flatMap(contentsOf))].map((c, i) => [c, blobs[i]]));
    const bases = new Map<string, { dirs: Dirs; sig: CommitSignature }>();
    const trees: HashedObject[] = [];
    const commits = reqs.map((req) => {
      const base = bases.get(req.parent) ?? { dirs: readTree(repo, req.parent), sig: signatureOn(repo, req.parent) };
      bases.set(req.parent, base);
      const root = treeWith(base.dirs, req, blobOf, trees);
      return commitObject(root, req, base.sig);
    });
    const written = writeObjects(
      repo,
      scratch,
      'tree',
      trees.map((t) => t.body),
    );
    // git checks each tree's encoding as it writes it; the ids must be the ones the commits name.
    if (written.some((sha, i) => sha !== trees[i].sha)) throw new Error('git hashed a tree differently than rollgen');
    return writeObjects(repo, scratch, 'commit', commits);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const contentsOf = (r: CommitRequest) => r.changes.flatMap((c) => (c.content === null ? [] : [c.content]));
const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** Every tree of `parent`, one `git ls-tree -r -t`. */
function readTree(repo: string, parent: string): Dirs {
  const dirs: Dirs = new Map([['', new Map()]]);
  for (const line of git(repo, ['ls-tree', '-r', '-t', '-z', `${parent}^{tree}`]).split('\0')) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    const [shown, type, sha] = line.slice(0, tab).split(' ');
    // ls-tree shows a tree's mode as 040000; the tree object itself says 40000.
    const mode = type === 'tree' ? TREE_MODE : shown;
    const path = line.slice(tab + 1);
    const cut = path.lastIndexOf('/');
    dirsOf(dirs, cut < 0 ? '' : path.slice(0, cut)).set(path.slice(cut + 1), { mode, sha });
    if (mode === TREE_MODE) dirsOf(dirs, path);
  }
  return dirs;
}

function dirsOf(dirs: Dirs, dir: string): Map<string, Entry> {
  let entries = dirs.get(dir);
  if (!entries) dirs.set(dir, (entries = new Map()));
  return entries;
}

/**
 * The root tree's sha after `req`'s changes (REST's entries: regular files, 100644). Only the
 * directories on a changed path are copied and rehashed, deepest first; their objects go to `out`.
 */
function treeWith(base: Dirs, req: CommitRequest, blobOf: ReadonlyMap<string, string>, out: HashedObject[]): string {
  const changed = new Map<string, Map<string, Entry>>();
  const edit = (dir: string) => {
    let entries = changed.get(dir);
    if (!entries) changed.set(dir, (entries = new Map(base.get(dir) ?? [])));
    return entries;
  };
  for (const c of req.changes) {
    const parts = c.path.split('/');
    for (let i = 0; i < parts.length; i++) edit(parts.slice(0, i).join('/'));
    const name = parts[parts.length - 1];
    const dir = edit(parts.slice(0, -1).join('/'));
    if (c.content === null) dir.delete(name);
    else dir.set(name, { mode: '100644', sha: blobOf.get(c.content)! });
  }
  const deepestFirst = [...changed.keys()].sort((a, b) => depth(b) - depth(a));
  for (const dir of deepestFirst) {
    const entries = changed.get(dir)!;
    if (dir === '') continue;
    const cut = dir.lastIndexOf('/');
    const parent = changed.get(cut < 0 ? '' : dir.slice(0, cut))!;
    const name = dir.slice(cut + 1);
    // A directory whose files were all deleted is gone, as in git.
    if (entries.size === 0) parent.delete(name);
    else parent.set(name, { mode: TREE_MODE, sha: hashed(treeObject(entries), 'tree', out) });
  }
  return hashed(treeObject(changed.get('')!), 'tree', out);
}

const depth = (dir: string) => (dir === '' ? 0 : dir.split('/').length);

/** git's tree encoding: entries by name, a directory's name compared as if it ended in '/'. */
function treeObject(entries: ReadonlyMap<string, Entry>): Buffer {
  const key = (name: string, e: Entry) => Buffer.from(e.mode === TREE_MODE ? `${name}/` : name, 'utf8');
  const sorted = [...entries].sort(([a, x], [b, y]) => Buffer.compare(key(a, x), key(b, y)));
  return Buffer.concat(
    sorted.flatMap(([name, e]) => [Buffer.from(`${e.mode} ${name}\0`, 'utf8'), Buffer.from(e.sha, 'hex')]),
  );
}

interface HashedObject {
  readonly body: Buffer;
  readonly sha: string;
}

function hashed(body: Buffer, type: string, out: HashedObject[]): string {
  const sha = createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
  out.push({ body, sha });
  return sha;
}

function commitObject(tree: string, req: CommitRequest, sig: CommitSignature): Buffer {
  const when = Math.floor(Date.parse(sig.date) / 1000);
  const zone = /([+-]\d\d):?(\d\d)$/.exec(sig.date);
  const who = `${sig.name} <${sig.email}> ${when} ${zone ? zone[1] + zone[2] : '+0000'}`;
  return utf8(`tree ${tree}\nparent ${req.parent}\nauthor ${who}\ncommitter ${who}\n\n${req.message}`);
}

/** Objects of one type written by one `git hash-object -w`; their ids in order. */
function writeObjects(repo: string, scratch: string, type: string, bodies: readonly Buffer[]): string[] {
  if (bodies.length === 0) return [];
  const files = bodies.map((body, i) => {
    const file = join(scratch, `${type}-${i}`);
    writeFileSync(file, body);
    return file;
  });
  return git(repo, ['hash-object', '-w', '--no-filters', '-t', type, '--stdin-paths'], files.join('\n') + '\n')
    .trim()
    .split('\n');
}

function git(repo: string, args: readonly string[], input?: string): string {
  return execFileSync('git', [...args], {
    cwd: repo,
    input,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });
}
