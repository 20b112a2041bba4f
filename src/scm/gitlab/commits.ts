import { COMMIT_IDENTITY } from '../github/local-commits';
import { fileOperations } from '../local-tree';
import type { CommitRequest } from '../types';
import { messageOf } from './errors';
import { GitLabHttp, GitLabHttpError } from './http';

interface CreatedCommit {
  readonly id: string;
}

/**
 * A step branch written by GitLab's commits API when the git push is refused: one
 * POST /projects/:id/repository/commits builds the commit on `start_sha` (the checkout's base
 * commit) with one action per changed file, so its tree is the one the push would have written.
 * A branch that may exist is reset with `force` (the branch becomes start_sha plus this commit);
 * a new one is created without it, and one left from an earlier merge request (GitLab answers
 * 400 "already exists") costs a second request with `force`, as the push's lease would reset it.
 */
export async function commitByApi(http: GitLabHttp, base: string, repo: string, req: CommitRequest): Promise<string> {
  const actions = fileOperations(repo, req).map((f) =>
    f.op === 'delete'
      ? { action: 'delete', file_path: f.path }
      : {
          action: f.op,
          file_path: f.path,
          content: Buffer.from(f.content!, 'utf8').toString('base64'),
          encoding: 'base64',
        },
  );
  const body = {
    branch: req.branch,
    commit_message: req.message,
    start_sha: req.parent,
    actions,
    author_name: COMMIT_IDENTITY.name,
    author_email: COMMIT_IDENTITY.email,
  };
  const post = (force: boolean) =>
    http.request<CreatedCommit>('POST', `${base}/repository/commits`, {}, force ? { ...body, force: true } : body);
  try {
    return (await post(req.expectedHead !== null)).data.id;
  } catch (error) {
    const exists =
      error instanceof GitLabHttpError &&
      error.status === 400 &&
      /a branch called .* already exists/i.test(messageOf(error.body) ?? '');
    if (req.expectedHead !== null || !exists) throw error;
    return (await post(true)).data.id;
  }
}
