/**
 * JSON bodies shaped as GitHub returns them. The OpenAPI check validates each one, so every
 * field marked required there is filled, most with plausible constants; the fields rollgen reads
 * (numbers, refs, shas, labels, states, times) come from the repo state.
 */
import type { CheckRun, Commit, CommitStatus, Pull, RepoState } from './state';

export interface Urls {
  /** API root, e.g. http://127.0.0.1:PORT/api/v3 */
  readonly api: string;
  /** Web root, e.g. http://127.0.0.1:PORT */
  readonly html: string;
}

const USER_URLS = [
  'events_url',
  'followers_url',
  'following_url',
  'gists_url',
  'organizations_url',
  'received_events_url',
  'repos_url',
  'starred_url',
  'subscriptions_url',
];
const REPO_URLS = [
  'archive_url',
  'assignees_url',
  'blobs_url',
  'branches_url',
  'collaborators_url',
  'comments_url',
  'commits_url',
  'compare_url',
  'contents_url',
  'contributors_url',
  'deployments_url',
  'downloads_url',
  'events_url',
  'forks_url',
  'git_commits_url',
  'git_refs_url',
  'git_tags_url',
  'hooks_url',
  'issue_comment_url',
  'issue_events_url',
  'issues_url',
  'keys_url',
  'labels_url',
  'languages_url',
  'merges_url',
  'milestones_url',
  'notifications_url',
  'pulls_url',
  'releases_url',
  'stargazers_url',
  'statuses_url',
  'subscribers_url',
  'subscription_url',
  'tags_url',
  'teams_url',
  'trees_url',
];

const urlFields = (names: readonly string[], base: string) =>
  Object.fromEntries(names.map((n) => [n, `${base}/${n.replace(/_url$/, '')}`]));

export function user(u: Urls, login: string) {
  return {
    login,
    id: 1,
    node_id: `U_${login}`,
    avatar_url: `${u.html}/${login}.png`,
    gravatar_id: '',
    url: `${u.api}/users/${login}`,
    html_url: `${u.html}/${login}`,
    type: 'User',
    site_admin: false,
    ...urlFields(USER_URLS, `${u.api}/users/${login}`),
  };
}

/** `minimal-repository`; `full` adds what the `repository` schema (inside pull requests) requires too. */
export function repository(u: Urls, s: RepoState, full: boolean) {
  const url = `${u.api}/repos/${s.owner}/${s.name}`;
  const minimal = {
    id: 1,
    node_id: 'R_1',
    name: s.name,
    full_name: `${s.owner}/${s.name}`,
    owner: user(u, s.owner),
    private: false,
    html_url: `${u.html}/${s.owner}/${s.name}`,
    description: null,
    fork: false,
    url,
    ...urlFields(REPO_URLS, url),
  };
  if (!full) return minimal;
  const counts = {
    forks: 0,
    forks_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    size: 1,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
  };
  const flags = {
    has_downloads: true,
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    archived: false,
    disabled: false,
  };
  const git = {
    clone_url: `${minimal.html_url}.git`,
    git_url: `git://fake/${s.owner}/${s.name}.git`,
    ssh_url: `git@fake:${s.owner}/${s.name}.git`,
    svn_url: minimal.html_url,
    mirror_url: null,
  };
  return {
    ...minimal,
    ...counts,
    ...flags,
    ...git,
    default_branch: s.defaultBranch,
    homepage: null,
    language: null,
    license: null,
    pushed_at: null,
    created_at: null,
    updated_at: null,
  };
}

export function gitRef(u: Urls, s: RepoState, branch: string, sha: string) {
  const url = `${u.api}/repos/${s.owner}/${s.name}/git/refs/heads/${branch}`;
  return {
    ref: `refs/heads/${branch}`,
    node_id: `REF_${branch}`,
    url,
    object: { type: 'commit', sha, url: `${u.api}/repos/${s.owner}/${s.name}/git/commits/${sha}` },
  };
}

export function gitTree(u: Urls, s: RepoState, sha: string) {
  const files = s.trees.get(sha) ?? new Map<string, string>();
  const tree = [...files.keys()]
    .sort()
    .map((path) => ({ path, mode: '100644', type: 'blob', sha: `blob-${path.length}` }));
  return { sha, url: `${u.api}/repos/${s.owner}/${s.name}/git/trees/${sha}`, truncated: false, tree };
}

export function gitCommit(u: Urls, s: RepoState, c: Commit) {
  const repoApi = `${u.api}/repos/${s.owner}/${s.name}`;
  const person = { name: 'rollgen', email: 'rollgen@example.com', date: '2026-01-01T00:00:00Z' };
  const parents = c.parents.map((p) => ({
    sha: p,
    url: `${repoApi}/git/commits/${p}`,
    html_url: `${u.html}/${s.owner}/${s.name}/commit/${p}`,
  }));
  const verification = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };
  return {
    sha: c.sha,
    node_id: `C_${c.sha}`,
    url: `${repoApi}/git/commits/${c.sha}`,
    html_url: `${u.html}/${s.owner}/${s.name}/commit/${c.sha}`,
    author: person,
    committer: person,
    message: c.message,
    tree: { sha: c.tree, url: `${repoApi}/git/trees/${c.tree}` },
    parents,
    verification,
  };
}

export function label(u: Urls, s: RepoState, name: string) {
  return {
    id: name.length,
    node_id: `L_${name}`,
    url: `${u.api}/repos/${s.owner}/${s.name}/labels/${encodeURIComponent(name)}`,
    name,
    description: '',
    color: 'ededed',
    default: false,
  };
}

/** `pull-request-simple` (lists) or, with `full`, `pull-request` (create, update). */
export function pullRequest(u: Urls, s: RepoState, p: Pull, full: boolean) {
  const api = `${u.api}/repos/${s.owner}/${s.name}`;
  const html = `${u.html}/${s.owner}/${s.name}/pull/${p.number}`;
  const repo = repository(u, s, true);
  const side = (ref: string, sha: string) => ({ label: `${s.owner}:${ref}`, ref, sha, repo, user: user(u, s.owner) });
  const link = (href: string) => ({ href });
  const links = {
    self: link(`${api}/pulls/${p.number}`),
    html: link(html),
    issue: link(`${api}/issues/${p.number}`),
    comments: link(`${api}/issues/${p.number}/comments`),
    review_comments: link(`${api}/pulls/${p.number}/comments`),
    review_comment: link(`${api}/pulls/comments{/number}`),
    commits: link(`${api}/pulls/${p.number}/commits`),
    statuses: link(`${api}/statuses/${s.headOf(p)}`),
  };
  const simple = {
    url: `${api}/pulls/${p.number}`,
    id: 1000 + p.number,
    node_id: `PR_${p.number}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${p.number}`,
    commits_url: `${api}/pulls/${p.number}/commits`,
    review_comments_url: `${api}/pulls/${p.number}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${p.number}/comments`,
    statuses_url: `${api}/statuses/${s.headOf(p)}`,
    number: p.number,
    state: p.state,
    locked: false,
    title: p.title,
    user: user(u, 'rollgen-bot'),
    body: p.body,
    labels: p.labels.map((l) => label(u, s, l)),
    milestone: null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    closed_at: p.closedAt,
    merged_at: p.mergedAt,
    merge_commit_sha: p.mergeCommitSha,
    assignee: null,
    head: side(p.head, s.headOf(p)),
    base: side(p.base, s.branches.get(p.base) ?? ''),
    _links: links,
    author_association: 'NONE',
    auto_merge: null,
  };
  if (!full) return simple;
  const counts = {
    comments: p.comments.length,
    review_comments: 0,
    commits: 1,
    additions: 0,
    deletions: 0,
    changed_files: 0,
  };
  return {
    ...simple,
    ...counts,
    merged: p.mergedAt !== null,
    mergeable: p.mergeable,
    mergeable_state: p.mergeable ? 'clean' : 'dirty',
    merged_by: null,
    maintainer_can_modify: false,
  };
}

export function checkRun(u: Urls, s: RepoState, sha: string, r: CheckRun) {
  const url = `${u.api}/repos/${s.owner}/${s.name}/check-runs/${r.id}`;
  const done = r.status === 'completed' ? '2026-01-01T00:01:00Z' : null;
  const output = {
    title: r.output?.title ?? null,
    summary: r.output?.summary ?? null,
    text: r.output?.text ?? null,
    annotations_count: 0,
    annotations_url: `${url}/annotations`,
  };
  return {
    id: r.id,
    node_id: `CR_${r.id}`,
    head_sha: sha,
    name: r.name,
    url,
    html_url: null,
    details_url: null,
    external_id: null,
    status: r.status,
    conclusion: r.conclusion,
    started_at: '2026-01-01T00:00:00Z',
    completed_at: done,
    output,
    check_suite: null,
    app: null,
    pull_requests: [],
  };
}

export function combinedStatus(u: Urls, s: RepoState, sha: string, statuses: readonly CommitStatus[]) {
  const states = statuses.map((x) => x.state);
  // GitHub: failure if any failed or errored, pending if any pending or none at all, else success.
  const state = states.some((x) => x === 'failure' || x === 'error')
    ? 'failure'
    : states.length === 0 || states.includes('pending')
      ? 'pending'
      : 'success';
  const api = `${u.api}/repos/${s.owner}/${s.name}`;
  const simple = (x: CommitStatus) => ({
    id: x.id,
    node_id: `ST_${x.id}`,
    state: x.state,
    context: x.context,
    description: null,
    target_url: null,
    avatar_url: null,
    url: `${api}/statuses/${sha}`,
    created_at: x.updatedAt ?? '2026-01-01T00:00:00Z',
    updated_at: x.updatedAt ?? '2026-01-01T00:00:00Z',
  });
  return {
    state,
    sha,
    total_count: statuses.length,
    statuses: statuses.map(simple),
    repository: repository(u, s, false),
    commit_url: `${api}/commits/${sha}`,
    url: `${api}/commits/${sha}/status`,
  };
}

export function issueComment(u: Urls, s: RepoState, number: number, index: number, body: string) {
  const api = `${u.api}/repos/${s.owner}/${s.name}`;
  const id = number * 1000 + index;
  return {
    id,
    node_id: `IC_${id}`,
    url: `${api}/issues/comments/${id}`,
    html_url: `${u.html}/${s.owner}/${s.name}/pull/${number}#issuecomment-${id}`,
    issue_url: `${api}/issues/${number}`,
    body,
    user: user(u, 'rollgen-bot'),
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    author_association: 'NONE',
  };
}
