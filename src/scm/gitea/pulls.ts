import { ScmError } from '../../errors';
import type { MergeMethod, PullRequest } from '../types';
import { GiteaHttpError } from './http';
import type { LabelIds } from './labels';
import type { ApiPull, GiteaRepo } from './repo';

/** Gitea serves at most MAX_RESPONSE_ITEMS (50 by default) a page, whatever `limit` asks. */
export const PAGE = 50;

/**
 * GET /pulls filtered here by head branch and head repository: ceil(PRs / 50) requests. With
 * `closedSince`, by most recent update (sort=recentupdate), stopping at the first page that
 * reaches back before it; open PRs are listed too when that cut the list short.
 */
export async function listPullsByPrefix(
  gh: GiteaRepo,
  prefix: string,
  state: 'open' | 'closed' | 'all',
  closedSince?: Date,
): Promise<ApiPull[]> {
  const list = (s: string, sort?: string, stop?: (page: readonly ApiPull[]) => boolean) =>
    gh.http.pages<ApiPull>(`${gh.path}/pulls`, { state: s, sort, limit: PAGE }, stop);
  let pulls: ApiPull[];
  if (closedSince && state !== 'open') {
    // Cut short only where a next page exists: a single page already holds every PR.
    let cut = false;
    const recent = await list(state, 'recentupdate', (page) => {
      cut = new Date(page[page.length - 1].updated_at) < closedSince;
      return cut;
    });
    const open = cut && state === 'all' ? await list('open') : [];
    const byNumber = new Map([...recent, ...open].map((p) => [p.number, p]));
    pulls = [...byNumber.values()].filter((p) => p.state === 'open' || new Date(p.updated_at) >= closedSince);
  } else pulls = await list(state);
  // A fork can name its branch like ours; only branches of this repository are rollgen's.
  const ours = (p: ApiPull) =>
    p.head.ref.startsWith(prefix) && p.head.repo?.full_name.toLowerCase() === `${gh.owner}/${gh.repo}`.toLowerCase();
  return pulls.filter(ours).sort((a, b) => b.number - a.number);
}

export interface NewPull {
  readonly branch: string;
  readonly base: string;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
}

/** One request, POST /pulls with the label ids (plus the labels' one list per run). Gitea's 409: it exists. */
export async function createPullRequest(gh: GiteaRepo, labels: LabelIds, req: NewPull): Promise<ApiPull> {
  const ids = await labels.idsOf(req.labels);
  const { data } = await gh.http.request<ApiPull>('POST', `${gh.path}/pulls`, {
    // Retried after a 5xx like a read: Gitea refuses a second PR for the same head and base (409),
    // which the flow takes as "already exists" and adopts, so a lost answer never makes two PRs.
    body: { head: req.branch, base: req.base, title: req.title, body: req.body, labels: ids },
  });
  return data;
}

export interface PullUpdate {
  readonly title?: string;
  readonly body?: string;
  readonly labels?: readonly string[];
  readonly state?: 'open' | 'closed';
}

/** One request: PATCH /pulls/{n}, whose `labels` (ids) replace the PR's; with nothing to change, GET /pulls/{n}. */
export async function updatePullRequest(
  gh: GiteaRepo,
  labels: LabelIds,
  number: number,
  req: PullUpdate,
): Promise<ApiPull> {
  const fields = {
    ...(req.title !== undefined ? { title: req.title } : {}),
    ...(req.body !== undefined ? { body: req.body } : {}),
    ...(req.state !== undefined ? { state: req.state } : {}),
    ...(req.labels !== undefined ? { labels: await labels.idsOf(req.labels) } : {}),
  };
  const path = `${gh.path}/pulls/${number}`;
  const { data } =
    Object.keys(fields).length > 0
      ? await gh.http.request<ApiPull>('PATCH', path, { body: fields })
      : await gh.http.request<ApiPull>('GET', path);
  return data;
}

/**
 * One request: POST /pulls/{n}/merge with `head_commit_id`, so a racing push is never merged
 * unseen (Gitea: 409 "head out of date"). 405 (not allowed: approvals, required statuses, a
 * protected base, work in progress) and other 409s (conflicts) are not-mergeable, said in
 * Gitea's words. A lost answer is settled by reading the PR.
 */
export async function mergePullRequest(
  gh: GiteaRepo,
  number: number,
  req: { sha: string; method: MergeMethod; title?: string },
): Promise<void> {
  const action = `merge PR #${number}`;
  try {
    await gh.http.request('POST', `${gh.path}/pulls/${number}/merge`, {
      body: { Do: req.method, head_commit_id: req.sha, ...(req.title ? { MergeTitleField: req.title } : {}) },
    });
  } catch (error) {
    if (!(error instanceof GiteaHttpError)) throw error;
    const { status, message } = error;
    if (status === 409 && /head out of date/i.test(message))
      throw new ScmError(
        action,
        status,
        `its head moved since rollgen checked it (expected ${req.sha.slice(0, 12)}): Gitea says "${message}"; not merged`,
        { outcome: 'head-moved' },
      );
    // A merge whose answer was lost (a 502 after Gitea merged) is retried and refused as merged: the PR says whether this very head landed.
    if (await mergedWithHead(gh, number, req.sha)) return;
    if (status === 405 || status === 409)
      throw new ScmError(
        action,
        status,
        `Gitea says it cannot be merged (${message}): conflicts, missing approvals or required statuses, or a protected base branch; rollgen holds it and tries again on the next run`,
        { outcome: 'not-mergeable' },
      );
    throw error;
  }
}

/** One more request, only after a failed merge: GET /pulls/{n}. */
async function mergedWithHead(gh: GiteaRepo, number: number, sha: string): Promise<boolean> {
  try {
    const { data } = await gh.http.request<ApiPull>('GET', `${gh.path}/pulls/${number}`);
    return data.merged && data.head.sha === sha;
  } catch {
    return false;
  }
}

export function toPullRequest(p: ApiPull): PullRequest {
  return {
    number: p.number,
    url: p.html_url,
    branch: p.head.ref,
    base: p.base.ref,
    state: p.state === 'closed' ? 'closed' : 'open',
    merged: p.merged === true,
    title: p.title,
    body: p.body ?? '',
    labels: (p.labels ?? []).map((l) => l.name),
    headSha: p.head.sha,
    ref: `#${p.number}`,
    ...(p.merged_at ? { mergedAt: p.merged_at } : {}),
    ...(p.closed_at ? { closedAt: p.closed_at } : {}),
  };
}
