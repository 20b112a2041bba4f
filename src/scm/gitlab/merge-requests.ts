import { ScmError } from '../../errors';
import type { MergeMethod, PullRequest } from '../types';
import { messageOf } from './errors';
import { GitLabHttp, GitLabHttpError } from './http';

/** The fields of GitLab's merge request object rollgen reads (REST API v4). */
export interface MergeRequest {
  readonly iid: number;
  readonly web_url: string;
  readonly source_branch: string;
  readonly target_branch: string;
  readonly state: 'opened' | 'closed' | 'locked' | 'merged';
  readonly title: string;
  readonly description: string | null;
  readonly labels: readonly string[];
  readonly sha: string;
  readonly merged_at?: string | null;
  readonly closed_at?: string | null;
  readonly updated_at: string;
  readonly merged_by?: { readonly username: string } | null;
  readonly detailed_merge_status?: string;
  readonly head_pipeline?: { readonly status: string } | null;
  readonly merge_when_pipeline_succeeds?: boolean;
}

export const asPull = (mr: MergeRequest): PullRequest => ({
  number: mr.iid,
  url: mr.web_url,
  branch: mr.source_branch,
  base: mr.target_branch,
  state: mr.state === 'opened' ? 'open' : 'closed',
  merged: mr.state === 'merged',
  title: mr.title,
  body: mr.description ?? '',
  labels: [...mr.labels],
  headSha: mr.sha,
  ref: `!${mr.iid}`,
  ...(mr.merged_at ? { mergedAt: mr.merged_at } : {}),
  ...(mr.closed_at || mr.merged_at ? { closedAt: (mr.closed_at ?? mr.merged_at)! } : {}),
});

/**
 * rollgen's merge requests in one paged scan: GitLab filters by state but not by a branch prefix,
 * so the prefix is matched here. Without `closedSince`: every page of the state asked for. With it:
 * every merge request by most recent update, stopping at the first page that reaches back before
 * it; when that cut the list short, the open ones (which matter however old) are listed too. Fewer
 * than 100 merge requests cost one request, as on GitHub.
 */
export async function listMergeRequests(
  http: GitLabHttp,
  base: string,
  prefix: string,
  state: 'open' | 'closed' | 'all',
  closedSince?: Date,
): Promise<MergeRequest[]> {
  const path = `${base}/merge_requests`;
  const order = { order_by: 'updated_at', sort: 'desc' } as const;
  const gitlabState = { open: 'opened', closed: undefined, all: 'all' }[state];
  let listed: MergeRequest[];
  if (closedSince && state !== 'open') {
    let cut = false;
    const recent = await http.pages<MergeRequest>(path, { state: 'all', ...order }, (page, more) => {
      cut = more && page.length > 0 && new Date(page[page.length - 1].updated_at) < closedSince;
      return cut;
    });
    const old = cut ? await http.pages<MergeRequest>(path, { state: 'opened', ...order }) : [];
    const seen = new Set(recent.map((m) => m.iid));
    listed = [
      ...recent.filter((m) => m.state === 'opened' || new Date(m.updated_at) >= closedSince),
      ...old.filter((m) => !seen.has(m.iid)),
    ];
  } else listed = await http.pages<MergeRequest>(path, { state: gitlabState ?? 'all', ...order });
  return listed
    .filter((mr) => mr.source_branch.startsWith(prefix) && (state !== 'closed' || mr.state !== 'opened'))
    .sort((a, b) => b.iid - a.iid);
}

/**
 * PUT /merge, only while the head is still `sha`. GitLab's refusals become holds in its own words:
 * a missing approval, a pipeline that must pass, a protected branch the token's role may not merge
 * into; while the head pipeline still runs, auto-merge is set instead (merge when it succeeds), once:
 * a later run finds it set and asks nothing more (merge-scheduled both times: the flow holds).
 */
export async function mergeMergeRequest(
  http: GitLabHttp,
  base: string,
  iid: number,
  req: { readonly sha: string; readonly method: MergeMethod; readonly title?: string },
): Promise<void> {
  const path = `${base}/merge_requests/${iid}`;
  const body = {
    sha: req.sha,
    ...(req.method === 'squash' ? { squash: true } : {}),
    ...(req.title ? { merge_commit_message: req.title } : {}),
  };
  try {
    await http.request('PUT', `${path}/merge`, {}, body);
  } catch (error) {
    if (!(error instanceof GitLabHttpError) || error.status === undefined) throw error;
    const said = messageOf(error.body) ?? error.message;
    if (error.status === 409)
      throw new ScmError(
        `merge !${iid}`,
        409,
        `its head moved since rollgen checked it (expected ${req.sha.slice(0, 12)}): ${said}; not merged`,
        {
          outcome: 'head-moved',
        },
      );
    const { data: mr } = await http.request<MergeRequest>('GET', path);
    // A merge whose answer was lost (a 502 after GitLab merged): the merge request says so.
    if (mr.state === 'merged' && mr.sha === req.sha) return;
    // Auto-merge set by an earlier run: GitLab merges it when the pipeline succeeds; asking again changes nothing.
    if (mr.merge_when_pipeline_succeeds) throw scheduled(iid, 'auto-merge is set');
    if (
      mr.head_pipeline &&
      ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'].includes(mr.head_pipeline.status)
    ) {
      await http.request('PUT', `${path}/merge`, {}, { ...body, merge_when_pipeline_succeeds: true, auto_merge: true });
      throw scheduled(iid, `its pipeline is ${mr.head_pipeline.status}: auto-merge set`);
    }
    if ([401, 403, 405, 406, 422].includes(error.status))
      throw new ScmError(
        `merge !${iid}`,
        error.status,
        `GitLab will not merge it (${said}): ${why(mr.detailed_merge_status)}`,
        {
          outcome: 'not-mergeable',
        },
      );
    throw error;
  }
}

const scheduled = (iid: number, why: string) =>
  new ScmError(`merge !${iid}`, undefined, `${why}; GitLab merges it when its pipeline succeeds`, {
    outcome: 'merge-scheduled',
  });

/** GitLab's detailed_merge_status in words a person acts on; approvals and protections are never bypassed. */
function why(status: string | undefined): string {
  const reasons: Record<string, string> = {
    not_approved: 'it needs the approvals the project requires; a person approves it, then the next run merges it',
    ci_must_pass: 'the project requires a successful pipeline on it',
    ci_still_running: 'its pipeline is still running',
    discussions_not_resolved: 'its discussions must be resolved first',
    draft_status: 'it is marked draft',
    conflict: 'it conflicts with the target branch',
    need_rebase: 'the project merges by fast-forward and it needs a rebase',
    blocked_status: 'another merge request blocks it',
    not_open: 'it is not open',
  };
  return (
    reasons[status ?? ''] ??
    `${status ? `merge status ${status}; ` : ''}the token's role may not merge into the protected target branch (give it Maintainer, or allow Developers to merge)`
  );
}
