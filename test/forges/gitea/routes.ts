/**
 * The operations the loopback Gitea serves, under Gitea's own path templates and with the request
 * fields its swagger (swagger.v1.json) documents for each option type: a field it does not document,
 * or a missing required one, is a violation the tests assert away. Status codes as Gitea answers:
 * 201 for created and for an edited PR, 404, 405 and 409 on merge, 409 for a PR that exists.
 */
import { contentRoutes } from './contents';
import * as P from './payloads';
import type { GiteaState, Pull } from './state';

export interface Call {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON checked against the documented fields first
  readonly body: any;
  readonly site: P.Site;
  readonly state: GiteaState;
  readonly git: RepoGit;
  /** This request's absolute URL without its query, for Link headers. */
  readonly self: string;
}

/** What the routes need of the real repository. */
export interface RepoGit {
  heads(): Map<string, string>;
  /** Merges `head` into `base` in the bare repository; returns the new base commit. */
  merge(base: string, head: string, method: string, message: string, at: Date): string;
  /** The bare repository the API writes into (its contents and branches routes). */
  dir(): string;
  /** After the API moved a branch: the push importer catches up, the server records a contents write. */
  changed(write: { branch: string; sha?: string; tree?: string; closed?: number }): void;
}

export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** The token scope group Gitea checks: `repository` or `issue`. */
  readonly scope: 'repository' | 'issue';
  /** The request body's documented fields (swagger definitions), required ones marked with `!`. */
  readonly fields?: readonly string[];
  readonly handle: (c: Call) => Reply;
}

export const fail = (status: number, message: string): Reply => ({
  status,
  body: { message, url: 'https://gitea.example/api/swagger' },
});
const ok = (body: unknown, status = 200): Reply => ({ status, body });
const REPO = '/repos/{owner}/{repo}';

/** One page as Gitea pages: `limit` (default 30, at most 50) and `page`, Link and X-Total-Count headers. */
function paged<T>(c: Call, items: readonly T[], show: (x: T) => unknown): Reply {
  const limit = Math.min(Number(c.query.get('limit') ?? 30) || 30, 50);
  const page = Math.max(Number(c.query.get('page') ?? 1) || 1, 1);
  const slice = items.slice((page - 1) * limit, page * limit);
  const link = (n: number, rel: string) => {
    const q = new URLSearchParams(c.query);
    q.set('page', String(n));
    q.set('limit', String(limit));
    return `<${c.self}?${q}>; rel="${rel}"`;
  };
  const last = Math.max(Math.ceil(items.length / limit), 1);
  const links = [
    ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : []),
  ];
  return {
    status: 200,
    body: slice.map(show),
    headers: { 'x-total-count': String(items.length), ...(links.length ? { link: links.join(',') } : {}) },
  };
}

const pullOf = (c: Call) => c.state.pulls.get(Number(c.params.index));

/** The head a PR shows: its branch while open and present, else the last one seen. */
function refresh(c: Call, p: Pull): Pull {
  const at = p.state === 'open' ? c.git.heads().get(p.head) : undefined;
  if (at) p.headSha = at;
  return p;
}

const show = (c: Call) => (p: Pull) => P.pull(c.site, c.state, refresh(c, p));

const SORTS: Record<string, (a: Pull, b: Pull) => number> = {
  oldest: (a, b) => a.number - b.number,
  recentupdate: (a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.number - a.number,
  leastupdate: (a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.number - b.number,
};

const pullRoutes: Route[] = [
  {
    method: 'GET',
    path: `${REPO}/pulls`,
    scope: 'repository',
    handle: (c) => {
      const state = c.query.get('state') ?? 'open';
      const sort = SORTS[c.query.get('sort') ?? ''] ?? ((a: Pull, b: Pull) => b.number - a.number);
      const all = [...c.state.pulls.values()].filter((p) => state === 'all' || p.state === state).sort(sort);
      return paged(c, all, show(c));
    },
  },
  {
    method: 'POST',
    path: `${REPO}/pulls`,
    scope: 'repository',
    fields: [
      'assignee',
      'assignees',
      'base',
      'body',
      'due_date',
      'head',
      'labels',
      'milestone',
      'reviewers',
      'team_reviewers',
      'title',
    ],
    handle: (c) => {
      const { head, base, title, body, labels } = c.body;
      const heads = c.git.heads();
      if (!heads.has(head) || !heads.has(base)) return fail(404, "The target couldn't be found.");
      const existing = [...c.state.pulls.values()].find(
        (p) => p.state === 'open' && p.head === head && p.base === base,
      );
      if (existing)
        return fail(
          409,
          `pull request already exists for these targets [id: ${1000 + existing.number}, issue_id: ${existing.number}, head_repo_id: 1, base_repo_id: 1, head_branch: ${head}, base_branch: ${base}]`,
        );
      const ids: number[] = labels ?? [];
      if (ids.some((id) => !c.state.labels.some((l) => l.id === id))) return fail(422, 'label does not exist');
      const number = c.state.nextId();
      const at = c.state.now();
      const pull: Pull = {
        number,
        head,
        base,
        title,
        body: body ?? '',
        state: 'open',
        labels: ids,
        headSha: heads.get(head)!,
        createdAt: at,
        updatedAt: at,
        mergedAt: null,
        mergedBy: null,
        closedAt: null,
        mergeCommitSha: null,
      };
      c.state.pulls.set(number, pull);
      return ok(show(c)(pull), 201);
    },
  },
  {
    method: 'GET',
    path: `${REPO}/pulls/{index}`,
    scope: 'repository',
    handle: (c) => {
      const p = pullOf(c);
      return p ? ok(show(c)(p)) : fail(404, "The target couldn't be found.");
    },
  },
  {
    method: 'PATCH',
    path: `${REPO}/pulls/{index}`,
    scope: 'repository',
    fields: [
      'allow_maintainer_edit',
      'assignee',
      'assignees',
      'base',
      'body',
      'due_date',
      'labels',
      'milestone',
      'state',
      'title',
      'unset_due_date',
    ],
    handle: (c) => {
      const p = pullOf(c);
      if (!p) return fail(404, "The target couldn't be found.");
      refresh(c, p);
      if (c.body.state !== undefined && !['open', 'closed'].includes(c.body.state)) return fail(422, 'invalid state');
      if (c.body.state === 'open' && p.mergedAt)
        return fail(409, 'cannot change state of this pull request, it was already merged');
      if (c.body.title !== undefined) p.title = c.body.title;
      if (c.body.body !== undefined) p.body = c.body.body;
      if (c.body.labels !== undefined) p.labels = [...new Set(c.body.labels as number[])];
      if (c.body.state !== undefined && c.body.state !== p.state) {
        p.state = c.body.state;
        p.closedAt = p.state === 'closed' ? c.state.now() : null;
      }
      p.updatedAt = c.state.now();
      return ok(show(c)(p), 201);
    },
  },
  {
    method: 'POST',
    path: `${REPO}/pulls/{index}/merge`,
    scope: 'repository',
    fields: [
      '!Do',
      'MergeCommitID',
      'MergeMessageField',
      'MergeTitleField',
      'delete_branch_after_merge',
      'force_merge',
      'head_commit_id',
      'merge_when_checks_succeed',
    ],
    handle: (c) => merge(c),
  },
  {
    method: 'GET',
    path: `${REPO}/commits/{sha}/pull`,
    scope: 'repository',
    handle: (c) => {
      const p = [...c.state.pulls.values()].find((x) => x.mergeCommitSha === c.params.sha);
      return p ? ok(show(c)(p)) : fail(404, "The target couldn't be found.");
    },
  },
];

/** Gitea's merge: 405 when it may not (closed, merged, protection), 409 when the head moved (head_commit_id) or it conflicts. */
function merge(c: Call): Reply {
  const p = pullOf(c);
  if (!p) return fail(404, "The target couldn't be found.");
  if (!['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'].includes(c.body.Do))
    return fail(422, 'Do: invalid merge style');
  if (p.mergedAt) return fail(405, 'The PR is already merged');
  if (p.state !== 'open') return fail(405, 'The PR is closed');
  const protection = c.state.protection;
  if (protection) return fail(405, `not allowed to merge [reason: ${protection}]`);
  refresh(c, p);
  if (c.body.head_commit_id && c.body.head_commit_id !== p.headSha) return fail(409, 'head out of date');
  const message =
    c.body.MergeTitleField ?? `Merge pull request '${p.title}' (#${p.number}) from ${p.head} into ${p.base}`;
  p.mergeCommitSha = c.git.merge(p.base, p.headSha, c.body.Do, message, c.state.time());
  const at = c.state.now();
  Object.assign(p, { state: 'closed', mergedAt: at, closedAt: at, updatedAt: at, mergedBy: 'rollgen-bot' });
  return { status: 200 };
}

const labelRoutes: Route[] = [
  {
    method: 'GET',
    path: `${REPO}/labels`,
    scope: 'issue',
    handle: (c) => paged(c, c.state.labels, (l) => P.label(c.site, l)),
  },
  {
    method: 'POST',
    path: `${REPO}/labels`,
    scope: 'issue',
    fields: ['!color', 'description', 'exclusive', 'is_archived', '!name'],
    handle: (c) => {
      if (!/^#?[0-9a-fA-F]{6}$/.test(c.body.color ?? '')) return fail(422, 'color: invalid color');
      const l = { id: c.state.nextId(), name: c.body.name, color: c.body.color, description: c.body.description ?? '' };
      c.state.labels.push(l);
      return ok(P.label(c.site, l), 201);
    },
  },
];

const commentRoutes: Route[] = [
  {
    method: 'GET',
    path: `${REPO}/issues/{index}/comments`,
    scope: 'issue',
    handle: (c) =>
      pullOf(c)
        ? ok(
            [...c.state.comments.values()]
              .filter((x) => x.issue === Number(c.params.index))
              .map((x) => P.comment(c.site, x)),
          )
        : fail(404, "The target couldn't be found."),
  },
  {
    method: 'POST',
    path: `${REPO}/issues/{index}/comments`,
    scope: 'issue',
    fields: ['!body'],
    handle: (c) => {
      if (!pullOf(c)) return fail(404, "The target couldn't be found.");
      const at = c.state.now();
      const x = {
        id: c.state.nextId(),
        issue: Number(c.params.index),
        body: c.body.body,
        createdAt: at,
        updatedAt: at,
      };
      c.state.comments.set(x.id, x);
      return ok(P.comment(c.site, x), 201);
    },
  },
  {
    method: 'GET',
    path: `${REPO}/issues/comments/{id}`,
    scope: 'issue',
    handle: (c) => {
      const x = c.state.comments.get(Number(c.params.id));
      return x ? ok(P.comment(c.site, x)) : fail(404, "The target couldn't be found.");
    },
  },
  {
    method: 'PATCH',
    path: `${REPO}/issues/comments/{id}`,
    scope: 'issue',
    fields: ['!body'],
    handle: (c) => {
      const x = c.state.comments.get(Number(c.params.id));
      if (!x) return fail(404, "The target couldn't be found.");
      x.body = c.body.body;
      x.updatedAt = c.state.now();
      return ok(P.comment(c.site, x));
    },
  },
];

const STATES = ['pending', 'success', 'error', 'failure', 'warning'];

const statusRoutes: Route[] = [
  {
    method: 'POST',
    path: `${REPO}/statuses/{sha}`,
    scope: 'repository',
    fields: ['context', 'description', 'state', 'target_url'],
    handle: (c) => {
      if (!STATES.includes(c.body.state)) return fail(422, 'state: invalid commit status state');
      const x = {
        id: c.state.nextId(),
        sha: c.params.sha,
        context: c.body.context ?? 'default',
        state: c.body.state,
        description: c.body.description ?? '',
        targetUrl: c.body.target_url ?? '',
        createdAt: c.state.now(),
      };
      c.state.statuses.push(x);
      return ok(P.status(c.site, x), 201);
    },
  },
  {
    method: 'GET',
    path: `${REPO}/commits/{ref}/status`,
    scope: 'repository',
    handle: (c) => {
      const all = c.state.latestStatuses(c.params.ref);
      const limit = Math.min(Number(c.query.get('limit') ?? 30) || 30, 50);
      const page = Math.max(Number(c.query.get('page') ?? 1) || 1, 1);
      return ok(P.combined(c.site, c.state, c.params.ref, all.slice((page - 1) * limit, page * limit)));
    },
  },
  {
    method: 'GET',
    path: `${REPO}/commits/{ref}/statuses`,
    scope: 'repository',
    handle: (c) =>
      paged(c, c.state.statuses.filter((s) => s.sha === c.params.ref).reverse(), (s) => P.status(c.site, s)),
  },
  {
    method: 'GET',
    path: `${REPO}/branches/{branch}`,
    scope: 'repository',
    handle: (c) => {
      const sha = c.git.heads().get(c.params.branch);
      return sha ? ok(P.branch(c.params.branch, sha)) : fail(404, "The target couldn't be found.");
    },
  },
];

export const ROUTES: readonly Route[] = [
  ...pullRoutes,
  ...labelRoutes,
  ...commentRoutes,
  ...statusRoutes,
  ...contentRoutes,
];
