import type { RestEndpointMethodTypes } from '@octokit/rest';
import { ScmError } from '../../errors';
import type { MergeMethod, PullRequest } from '../types';
import { messageOf, statusOf } from './errors';
import type { GitHubRepo } from './repo';

type ListedPull = RestEndpointMethodTypes['pulls']['list']['response']['data'][number];
type FullPull = RestEndpointMethodTypes['pulls']['get']['response']['data'];
/** Labels as the pulls and issues APIs return them; only the name matters here. */
type Label = { readonly name?: string } | string;

/**
 * GET pulls filtered here by head branch and head repository. Without `closedSince`: ceil(PRs / 100)
 * requests. With it, see boundedScan.
 */
export async function listPullsByPrefix(
  gh: GitHubRepo,
  prefix: string,
  state: 'open' | 'closed' | 'all',
  closedSince?: Date,
): Promise<PullRequest[]> {
  const { owner, repo } = gh;
  const pulls =
    closedSince && state !== 'open'
      ? await boundedScan(gh, state, closedSince)
      : await gh.octokit.paginate(gh.octokit.rest.pulls.list, {
          owner,
          repo,
          state,
          sort: 'created',
          direction: 'desc',
          per_page: 100,
        });
  // A fork can name its branch like ours; only branches of this repository are rollgen's.
  const ours = (p: ListedPull) =>
    p.head.ref.startsWith(prefix) && p.head.repo?.full_name.toLowerCase() === `${owner}/${repo}`.toLowerCase();
  return pulls.filter(ours).map((p) => toPullRequest(p));
}

/**
 * Every PR by most recent update, stopping at the first page that reaches back before `since`; when
 * that cut the list short, open PRs (which matter however old) are listed too. A repository with
 * fewer than 100 PRs costs one request.
 */
async function boundedScan(gh: GitHubRepo, state: 'closed' | 'all', since: Date): Promise<ListedPull[]> {
  const { owner, repo } = gh;
  let cut = false;
  const recent = await gh.octokit.paginate(
    gh.octokit.rest.pulls.list,
    { owner, repo, state, sort: 'updated', direction: 'desc', per_page: 100 },
    (response, done) => {
      const page = response.data;
      const more = /rel="next"/.test(response.headers.link ?? '');
      if (more && new Date(page[page.length - 1].updated_at) < since) {
        cut = true;
        done();
      }
      return page.filter((p) => p.state === 'open' || new Date(p.updated_at) >= since);
    },
  );
  const open =
    cut && state === 'all'
      ? await gh.octokit.paginate(gh.octokit.rest.pulls.list, {
          owner,
          repo,
          state: 'open',
          sort: 'created',
          direction: 'desc',
          per_page: 100,
        })
      : [];
  const byNumber = new Map([...recent, ...open].map((p) => [p.number, p]));
  return [...byNumber.values()].sort((a, b) => b.number - a.number);
}

export interface NewPull {
  readonly branch: string;
  readonly base: string;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
}

/** Two requests (one without labels): POST pulls + POST issues/{n}/labels. */
export async function createPullRequest(gh: GitHubRepo, req: NewPull): Promise<PullRequest> {
  const { owner, repo } = gh;
  const { data } = await gh.octokit.rest.pulls.create({
    owner,
    repo,
    head: req.branch,
    base: req.base,
    title: req.title,
    body: req.body,
  });
  if (req.labels.length === 0) return toPullRequest(data);
  const labels = await gh.octokit.rest.issues.addLabels({
    owner,
    repo,
    issue_number: data.number,
    labels: [...req.labels],
  });
  return toPullRequest(data, labels.data);
}

export interface PullUpdate {
  readonly title?: string;
  readonly body?: string;
  readonly labels?: readonly string[];
  readonly state?: 'open' | 'closed';
}

/**
 * One request: PATCH pulls/{n}; a second, PUT issues/{n}/labels, only when the label set differs.
 * With only labels to change there is nothing to PATCH (an empty body is no JSON): the PR is read.
 */
export async function updatePullRequest(gh: GitHubRepo, number: number, req: PullUpdate): Promise<PullRequest> {
  const { owner, repo } = gh;
  const fields = { title: req.title, body: req.body, state: req.state };
  const { data } = Object.values(fields).some((v) => v !== undefined)
    ? await gh.octokit.rest.pulls.update({ owner, repo, pull_number: number, ...fields })
    : await gh.octokit.rest.pulls.get({ owner, repo, pull_number: number });
  const current = data.labels.map(labelName);
  if (req.labels === undefined || sameSet(current, req.labels)) return toPullRequest(data);
  const labels = await gh.octokit.rest.issues.setLabels({ owner, repo, issue_number: number, labels: [...req.labels] });
  return toPullRequest(data, labels.data);
}

/** One request: PUT pulls/{n}/merge with the expected head sha, so a racing push is never merged unseen. */
export async function mergePullRequest(
  gh: GitHubRepo,
  number: number,
  req: { sha: string; method: MergeMethod; title?: string },
): Promise<void> {
  const { owner, repo } = gh;
  const action = `merge PR #${number}`;
  try {
    await gh.octokit.rest.pulls.merge({
      owner,
      repo,
      pull_number: number,
      sha: req.sha,
      merge_method: req.method,
      commit_title: req.title,
    });
  } catch (error) {
    const status = statusOf(error);
    // A merge whose response was lost (a 502 after GitHub merged) is retried by the client and then
    // refused as not mergeable: the PR itself says whether this very head landed.
    if (status !== 409 && (await mergedWithHead(gh, number, req.sha))) return;
    if (status === 409)
      throw new ScmError(
        action,
        status,
        `its head moved since rollgen checked it (expected ${req.sha.slice(0, 12)}): ${messageOf(error)}; not merged`,
        { outcome: 'head-moved' },
      );
    if (status === 405)
      throw new ScmError(
        action,
        status,
        `GitHub says it is not mergeable (${messageOf(error)}): conflicts, required reviews or checks`,
        { outcome: 'not-mergeable' },
      );
    throw error;
  }
}

/** One more request, only after a failed merge: GET pulls/{n}. */
async function mergedWithHead(gh: GitHubRepo, number: number, sha: string): Promise<boolean> {
  try {
    const { data } = await gh.octokit.rest.pulls.get({ owner: gh.owner, repo: gh.repo, pull_number: number });
    return data.merged === true && data.head.sha === sha;
  } catch {
    return false;
  }
}

/**
 * One request: POST issues/{n}/comments, which is not idempotent, so the client's blind retry is off:
 * after a 5xx or no response, GET issues/{n}/comments tells whether it landed, and only if not is it
 * posted once more. A lost response never leaves two identical comments.
 */
export async function createComment(gh: GitHubRepo, number: number, body: string): Promise<void> {
  const { owner, repo } = gh;
  const post = () =>
    gh.octokit.rest.issues.createComment({ owner, repo, issue_number: number, body, request: { retries: 0 } });
  try {
    await post();
  } catch (error) {
    const status = statusOf(error);
    if (status !== undefined && status < 500) throw error;
    const comments = await gh.octokit.paginate(gh.octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: number,
      per_page: 100,
    });
    if (comments.some((c) => c.body === body)) return;
    await post();
  }
}

function toPullRequest(p: ListedPull | FullPull, labels: readonly Label[] = p.labels): PullRequest {
  return {
    number: p.number,
    url: p.html_url,
    branch: p.head.ref,
    base: p.base.ref,
    state: p.state === 'closed' ? 'closed' : 'open',
    merged: p.merged_at !== null,
    title: p.title,
    body: p.body ?? '',
    labels: labels.map(labelName),
    headSha: p.head.sha,
    ref: `#${p.number}`,
    ...(p.merged_at ? { mergedAt: p.merged_at } : {}),
    ...(p.closed_at ? { closedAt: p.closed_at } : {}),
  };
}

function labelName(l: Label): string {
  return typeof l === 'string' ? l : (l.name ?? '');
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((x) => right.has(x));
}
