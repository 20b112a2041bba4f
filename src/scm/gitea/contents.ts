import { execFileSync } from 'node:child_process';
import { ScmError } from '../../errors';
import { signatureOn } from '../github/local-commits';
import { fileOperations } from '../local-tree';
import type { CommitRequest } from '../types';
import { GiteaHttpError } from './http';
import type { GiteaRepo } from './repo';

interface FilesResponse {
  readonly commit: { readonly sha: string; readonly parents?: readonly { readonly sha: string }[] };
}
interface GitTree {
  readonly tree: readonly { readonly path: string; readonly type: string; readonly sha: string }[];
  readonly truncated: boolean;
}
type Operation = { operation: 'create' | 'update' | 'delete'; path: string; content?: string; sha?: string };

/**
 * A step branch written by Gitea's ChangeFiles API (POST /repos/{owner}/{repo}/contents) when the
 * git push is refused. Gitea starts a branch only from a branch name (`branch`, then `new_branch`),
 * never resets one, and deleting a branch closes the open PRs whose head it is. So:
 * - a new branch: one request, from the base branch, checked to sit on the checkout's commit;
 * - a branch left from an earlier PR (no open PR on it): deleted (closing nothing), then created;
 * - the branch of an open PR: one commit on top of its head that makes its tree the one the push
 *   would have written (its files read by GET git/trees), so the PR stays open and the content is
 *   the same; the branch then carries more than one commit.
 * Author, committer and dates are rollgen's and the parent's, as the push signs its commit.
 */
export async function writeByContents(gh: GiteaRepo, repo: string, req: CommitRequest): Promise<string> {
  if (req.expectedHead) return commitOnTop(gh, repo, req, req.expectedHead);
  try {
    return await createBranch(gh, repo, req);
  } catch (error) {
    const exists =
      error instanceof GiteaHttpError && error.status === 422 && /branch already exists/i.test(error.message);
    if (!exists) throw error;
    if (req.expectedHead === undefined) {
      const { data } = await gh.http.request<{ commit: { id: string } }>('GET', `${gh.path}/branches/${req.branch}`);
      return commitOnTop(gh, repo, req, data.commit.id);
    }
    // Expected absent, so no open PR has it as its head: deleting it closes nothing.
    await gh.http.request('DELETE', `${gh.path}/branches/${req.branch}`);
    return createBranch(gh, repo, req);
  }
}

function signed(repo: string, req: CommitRequest) {
  const sig = signatureOn(repo, req.parent);
  const who = { name: sig.name, email: sig.email };
  return { message: req.message, author: who, committer: who, dates: { author: sig.date, committer: sig.date } };
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

async function createBranch(gh: GiteaRepo, repo: string, req: CommitRequest): Promise<string> {
  const files: Operation[] = fileOperations(repo, req).map((f) => ({
    operation: f.op,
    path: f.path,
    ...(f.content !== undefined ? { content: base64(f.content) } : {}),
    ...(f.blob ? { sha: f.blob } : {}),
  }));
  const body = { ...(req.base ? { branch: req.base } : {}), new_branch: req.branch, files, ...signed(repo, req) };
  const { data } = await gh.http.request<FilesResponse>('POST', `${gh.path}/contents`, { body });
  const parent = data.commit.parents?.[0]?.sha;
  if (parent !== req.parent)
    throw new ScmError(
      `write branch ${req.branch}`,
      undefined,
      `${req.base ?? 'the default branch'} moved since the checkout (it is at ${parent?.slice(0, 12)}, the checkout at ${req.parent.slice(0, 12)}): the branch holds the newer base; the next run writes it again`,
    );
  return data.commit.sha;
}

/** One commit on `head` whose tree is the parent's with the request's changes: every file that differs is written. */
async function commitOnTop(gh: GiteaRepo, repo: string, req: CommitRequest, head: string): Promise<string> {
  const entries: GitTree['tree'][number][] = [];
  // Gitea pages a tree at its DEFAULT_GIT_TREES_PER_PAGE (1000): `truncated` says another page follows.
  for (let page = 1, more = true; more; page++) {
    const { data } = await gh.http.request<GitTree>('GET', `${gh.path}/git/trees/${head}`, {
      query: { recursive: 'true', per_page: 1000, page },
    });
    entries.push(...data.tree);
    more = data.truncated && data.tree.length > 0;
  }
  const now = new Map(entries.filter((e) => e.type === 'blob').map((e) => [e.path, e.sha]));
  const wanted = desiredBlobs(repo, req);
  const files: Operation[] = [];
  for (const [path, blob] of wanted) {
    if (now.get(path) === blob) continue;
    const content = req.changes.find((c) => c.path === path)?.content ?? showBlob(repo, blob);
    files.push({
      operation: now.has(path) ? 'update' : 'create',
      path,
      content: base64(content),
      ...(now.has(path) ? { sha: now.get(path) } : {}),
    });
  }
  for (const [path, sha] of now) if (!wanted.has(path)) files.push({ operation: 'delete', path, sha });
  if (files.length === 0) return head;
  const body = { branch: req.branch, files, ...signed(repo, req) };
  const { data: written } = await gh.http.request<FilesResponse>('POST', `${gh.path}/contents`, { body });
  // No lease on this API: a push made since rollgen read the head is only seen afterwards, as on a push.
  const under = written.commit.parents?.[0]?.sha;
  if (under !== head)
    throw new ScmError(
      `write branch ${req.branch}`,
      undefined,
      `it moved since rollgen read it (saw it at ${head.slice(0, 12)}, it was at ${under?.slice(0, 12)}): rollgen's commit went on top; the next run reads it again`,
      { outcome: 'head-moved' },
    );
  return written.commit.sha;
}

/** Path → blob of the tree the push would write: the parent's files with the request's changes. */
function desiredBlobs(repo: string, req: CommitRequest): Map<string, string> {
  const git = (args: string[], input?: string) =>
    execFileSync('git', args, { cwd: repo, input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const out = new Map<string, string>();
  for (const line of git(['ls-tree', '-r', '-z', req.parent]).split('\0')) {
    const tab = line.indexOf('\t');
    if (tab >= 0) out.set(line.slice(tab + 1), line.slice(0, tab).split(' ')[2]);
  }
  for (const c of req.changes) {
    if (c.content === null) out.delete(c.path);
    else out.set(c.path, git(['hash-object', '--stdin', '--no-filters'], c.content).trim());
  }
  return out;
}

function showBlob(repo: string, blob: string): string {
  return execFileSync('git', ['cat-file', 'blob', blob], { cwd: repo, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}
