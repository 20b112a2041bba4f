import type { CommitRequest } from '../types';
import type { CommitSignature } from './local-commits';
import { messageOf, statusOf } from './errors';
import type { GitHubRepo } from './repo';

/** One request: GET git/ref/heads/{branch}; 404 means no such branch. */
export async function fetchBranchHead(gh: GitHubRepo, branch: string): Promise<string | undefined> {
  try {
    const { data } = await gh.octokit.rest.git.getRef({ owner: gh.owner, repo: gh.repo, ref: `heads/${branch}` });
    return data.object.sha;
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

/**
 * The REST fallback of GitBranchWriter (branches.ts).
 * Three requests with `parentTree`, four without: (GET git/commits/{parent}) + POST git/trees +
 * POST git/commits + POST git/refs. An existing branch costs one more: the 422 "Reference already
 * exists", then PATCH git/refs force. The ref moves last, so a failure before it leaves the branch
 * where it was (the tree and commit objects left behind are unreachable and harmless).
 */
export async function createCommitOnBranch(
  gh: GitHubRepo,
  req: CommitRequest,
  signature?: CommitSignature,
): Promise<string> {
  const { owner, repo } = gh;
  const baseTree =
    req.parentTree ?? (await gh.octokit.rest.git.getCommit({ owner, repo, commit_sha: req.parent })).data.tree.sha;
  const tree = req.changes.map((c) =>
    c.content === null
      ? { path: c.path, mode: '100644' as const, type: 'blob' as const, sha: null }
      : { path: c.path, mode: '100644' as const, type: 'blob' as const, content: c.content },
  );
  const created = await gh.octokit.rest.git.createTree({ owner, repo, base_tree: baseTree, tree });
  const commit = await gh.octokit.rest.git.createCommit({
    owner,
    repo,
    message: req.message,
    tree: created.data.sha,
    parents: [req.parent],
    // As the git path signs it, so both paths make the same commit from the same change.
    ...(signature ? { author: signature, committer: signature } : {}),
  });
  await pointBranchAt(gh, req.branch, commit.data.sha);
  return commit.data.sha;
}

async function pointBranchAt(gh: GitHubRepo, branch: string, sha: string): Promise<void> {
  const { owner, repo } = gh;
  try {
    await gh.octokit.rest.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha });
  } catch (error) {
    // A step branch is reset on every update, so an existing one is expected, not a conflict.
    if (statusOf(error) !== 422 || !/already exists/i.test(messageOf(error))) throw error;
    await gh.octokit.rest.git.updateRef({ owner, repo, ref: `heads/${branch}`, sha, force: true });
  }
}
