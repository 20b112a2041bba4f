/**
 * Gitea's JSON as its API reference (swagger.v1.json, definitions PullRequest, PRBranchInfo, Label,
 * Comment, CommitStatus, CombinedStatus, Branch, User) spells it: snake_case fields, a status's state
 * in `status`, labels as objects with ids, `merged` and `merged_by` on a PR.
 */
import type { Comment, GiteaState, Label, Pull, Status } from './state';

export interface Site {
  /** http://127.0.0.1:PORT (ROOT_URL without the slash) */
  readonly origin: string;
  readonly owner: string;
  readonly name: string;
}

const api = (s: Site) => `${s.origin}/api/v1`;
const full = (s: Site) => `${s.owner}/${s.name}`;

export function user(login: string) {
  return {
    id: login === 'rollgen-bot' ? 2 : 3,
    login,
    full_name: login,
    email: `${login}@example.com`,
    username: login,
  };
}

export function repository(s: Site) {
  return {
    id: 1,
    owner: user(s.owner),
    name: s.name,
    full_name: full(s),
    html_url: `${s.origin}/${full(s)}`,
    clone_url: `${s.origin}/${full(s)}.git`,
    default_branch: 'main',
    private: false,
    fork: false,
  };
}

export function label(s: Site, l: Label) {
  return {
    id: l.id,
    name: l.name,
    color: l.color.replace(/^#/, ''),
    description: l.description,
    exclusive: false,
    is_archived: false,
    url: `${api(s)}/repos/${full(s)}/labels/${l.id}`,
  };
}

function branchInfo(s: Site, ref: string, sha: string) {
  return { label: ref, ref, sha, repo_id: 1, repo: repository(s) };
}

export function pull(s: Site, st: GiteaState, p: Pull) {
  return {
    id: 1000 + p.number,
    url: `${s.origin}/${full(s)}/pulls/${p.number}`,
    number: p.number,
    user: user('rollgen-bot'),
    title: p.title,
    body: p.body,
    labels: p.labels.map((id) => label(s, st.labels.find((l) => l.id === id)!)),
    milestone: null,
    assignee: null,
    assignees: null,
    requested_reviewers: null,
    state: p.state,
    draft: false,
    is_locked: false,
    comments: [...st.comments.values()].filter((c) => c.issue === p.number).length,
    html_url: `${s.origin}/${full(s)}/pulls/${p.number}`,
    diff_url: `${s.origin}/${full(s)}/pulls/${p.number}.diff`,
    patch_url: `${s.origin}/${full(s)}/pulls/${p.number}.patch`,
    mergeable: p.state === 'open',
    merged: p.mergedAt !== null,
    merged_at: p.mergedAt,
    merge_commit_sha: p.mergeCommitSha,
    merged_by: p.mergedBy ? user(p.mergedBy) : null,
    allow_maintainer_edit: false,
    base: branchInfo(s, p.base, ''),
    head: branchInfo(s, p.head, p.headSha),
    merge_base: '',
    due_date: null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    closed_at: p.closedAt,
  };
}

export function comment(s: Site, c: Comment) {
  return {
    id: c.id,
    html_url: `${s.origin}/${full(s)}/pulls/${c.issue}#issuecomment-${c.id}`,
    pull_request_url: `${s.origin}/${full(s)}/pulls/${c.issue}`,
    issue_url: '',
    user: user('rollgen-bot'),
    original_author: '',
    original_author_id: 0,
    body: c.body,
    assets: [],
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

export function status(s: Site, x: Status) {
  return {
    id: x.id,
    status: x.state,
    target_url: x.targetUrl,
    description: x.description,
    url: `${api(s)}/repos/${full(s)}/statuses/${x.sha}`,
    context: x.context,
    creator: user('flux'),
    created_at: x.createdAt,
    updated_at: x.createdAt,
  };
}

export function combined(s: Site, st: GiteaState, sha: string, page: readonly Status[]) {
  return {
    state: st.combined(sha),
    sha,
    total_count: st.latestStatuses(sha).length,
    statuses: page.map((x) => status(s, x)),
    repository: repository(s),
    commit_url: `${api(s)}/repos/${full(s)}/git/commits/${sha}`,
    url: `${api(s)}/repos/${full(s)}/commits/${sha}/status`,
  };
}

export function branch(name: string, sha: string) {
  return {
    name,
    commit: { id: sha, message: '', url: '' },
    protected: false,
    user_can_push: true,
    user_can_merge: true,
  };
}
