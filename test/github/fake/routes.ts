/**
 * The REST operations the fake serves, keyed by GitHub's own path templates (so the OpenAPI
 * check can look each one up). Handlers mutate the RepoState the way GitHub does, including the
 * refusals rollgen must handle: 404 for a missing ref, 422 for an existing ref, 405/409 on merge.
 */
import * as P from './payloads';
import type { CheckRun, RepoState } from './state';

export interface Call {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON; already checked against the operation's request schema. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- validated against the OpenAPI schema, read per route
  readonly body: any;
  readonly urls: P.Urls;
  readonly state: RepoState;
  /** Absolute URL of this request without its query, for Link headers. */
  readonly self: string;
}

export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  readonly path: string;
  readonly handle: (call: Call) => Reply;
}

const DOCS = 'https://docs.github.com/rest';
export const fail = (status: number, message: string): Reply => ({
  status,
  body: { message, documentation_url: DOCS },
});
const ok = (body: unknown, status = 200): Reply => ({ status, body });
const REPO = '/repos/{owner}/{repo}';

function pullOr404(c: Call) {
  return c.state.pulls.get(Number(c.params.pull_number ?? c.params.issue_number));
}

/** One page of `items` and GitHub's Link header pointing at the next one. */
function paged<T>(c: Call, items: readonly T[], wrap: (page: readonly T[]) => unknown): Reply {
  const perPage = Math.min(Number(c.query.get('per_page') ?? 30), 100);
  const page = Number(c.query.get('page') ?? 1);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  if (page * perPage >= items.length) return ok(wrap(slice));
  const next = new URLSearchParams(c.query);
  next.set('page', String(page + 1));
  return { status: 200, body: wrap(slice), headers: { link: `<${c.self}?${next}>; rel="next"` } };
}

const gitRoutes: Route[] = [
  {
    method: 'GET',
    path: `${REPO}/git/ref/{ref}`,
    handle: (c) => {
      const sha = c.params.ref.startsWith('heads/') ? c.state.branches.get(c.params.ref.slice(6)) : undefined;
      return sha ? ok(P.gitRef(c.urls, c.state, c.params.ref.slice(6), sha)) : fail(404, 'Not Found');
    },
  },
  {
    method: 'GET',
    path: `${REPO}/git/commits/{commit_sha}`,
    handle: (c) => {
      const commit = c.state.commits.get(c.params.commit_sha);
      return commit ? ok(P.gitCommit(c.urls, c.state, commit)) : fail(404, 'Not Found');
    },
  },
  {
    method: 'POST',
    path: `${REPO}/git/trees`,
    handle: (c) => {
      const base = c.body.base_tree ? c.state.trees.get(c.body.base_tree) : new Map<string, string>();
      if (!base) return fail(422, 'Invalid tree info');
      const files = new Map(base);
      for (const e of c.body.tree as { path: string; sha?: string | null; content?: string }[]) {
        if (e.content !== undefined) files.set(e.path, e.content);
        else if (e.sha === null) files.delete(e.path);
        else return fail(422, 'the fake only supports inline content and deletions');
      }
      return ok(P.gitTree(c.urls, c.state, c.state.addTree(files)), 201);
    },
  },
  {
    method: 'POST',
    path: `${REPO}/git/commits`,
    handle: (c) => {
      const parents: string[] = c.body.parents ?? [];
      if (!c.state.trees.has(c.body.tree) || parents.some((p) => !c.state.commits.has(p)))
        return fail(422, 'Tree SHA or parent SHA does not exist');
      return ok(P.gitCommit(c.urls, c.state, c.state.addCommit(c.body.tree, parents, c.body.message)), 201);
    },
  },
  {
    method: 'POST',
    path: `${REPO}/git/refs`,
    handle: (c) => {
      const branch = String(c.body.ref).replace(/^refs\/heads\//, '');
      if (!String(c.body.ref).startsWith('refs/heads/')) return fail(422, 'Reference name must start with refs/');
      if (c.state.branches.has(branch)) return fail(422, 'Reference already exists');
      if (!c.state.commits.has(c.body.sha)) return fail(422, 'Object does not exist');
      c.state.branches.set(branch, c.body.sha);
      return ok(P.gitRef(c.urls, c.state, branch, c.body.sha), 201);
    },
  },
  {
    method: 'PATCH',
    path: `${REPO}/git/refs/{ref}`,
    handle: (c) => {
      const branch = c.params.ref.replace(/^heads\//, '');
      const current = c.state.branches.get(branch);
      if (!current) return fail(422, 'Reference does not exist');
      if (!c.state.commits.has(c.body.sha)) return fail(422, 'Object does not exist');
      if (!c.body.force && !c.state.commits.get(c.body.sha)?.parents.includes(current))
        return fail(422, 'Update is not a fast forward');
      c.state.branches.set(branch, c.body.sha);
      return ok(P.gitRef(c.urls, c.state, branch, c.body.sha));
    },
  },
];

const pullRoutes: Route[] = [
  {
    method: 'GET',
    path: `${REPO}/pulls`,
    handle: (c) => {
      const state = c.query.get('state') ?? 'open';
      const asc = c.query.get('direction') === 'asc';
      const key = (p: { number: number; updatedAt: string }) =>
        c.query.get('sort') === 'updated' ? Date.parse(p.updatedAt) * 1e6 + p.number : p.number;
      const all = [...c.state.pulls.values()]
        .filter((p) => state === 'all' || p.state === state)
        .sort((a, b) => (asc ? key(a) - key(b) : key(b) - key(a)));
      return paged(c, all, (page) => page.map((p) => P.pullRequest(c.urls, c.state, p, false)));
    },
  },
  {
    method: 'POST',
    path: `${REPO}/pulls`,
    handle: (c) => {
      const { head, base, title, body } = c.body;
      if (!c.state.branches.has(head) || !c.state.branches.has(base)) return fail(422, 'Validation Failed');
      if ([...c.state.pulls.values()].some((p) => p.state === 'open' && p.head === head && p.base === base))
        return fail(422, `A pull request already exists for ${c.state.owner}:${head}.`);
      return ok(P.pullRequest(c.urls, c.state, c.state.openPull(head, base, title, body ?? null), true), 201);
    },
  },
  {
    method: 'GET',
    path: `${REPO}/pulls/{pull_number}`,
    handle: (c) => {
      const pull = pullOr404(c);
      return pull ? ok(P.pullRequest(c.urls, c.state, pull, true)) : fail(404, 'Not Found');
    },
  },
  {
    method: 'PATCH',
    path: `${REPO}/pulls/{pull_number}`,
    handle: (c) => {
      const pull = pullOr404(c);
      if (!pull) return fail(404, 'Not Found');
      if (c.body.title !== undefined) pull.title = c.body.title;
      if (c.body.body !== undefined) pull.body = c.body.body;
      if (c.body.state !== undefined && c.body.state !== pull.state) {
        pull.lastHeadSha = c.state.headOf(pull);
        pull.state = c.body.state;
        pull.closedAt = pull.state === 'closed' ? c.state.now() : null;
      }
      pull.updatedAt = c.state.now();
      return ok(P.pullRequest(c.urls, c.state, pull, true));
    },
  },
  {
    method: 'PUT',
    path: `${REPO}/pulls/{pull_number}/merge`,
    handle: (c) => {
      const pull = pullOr404(c);
      if (!pull) return fail(404, 'Not Found');
      if (pull.state !== 'open' || !pull.mergeable) return fail(405, 'Pull Request is not mergeable');
      const head = c.state.headOf(pull);
      if (c.body.sha && c.body.sha !== head)
        return fail(409, 'Head branch was modified. Review and try the merge again.');
      const baseSha = c.state.branches.get(pull.base) ?? '';
      const merged = c.state.addCommit(
        c.state.commits.get(head)?.tree ?? '',
        [baseSha],
        c.body.commit_title ?? `Merge pull request #${pull.number}`,
      );
      c.state.branches.set(pull.base, merged.sha);
      Object.assign(pull, {
        state: 'closed',
        lastHeadSha: head,
        mergedAt: c.state.now(),
        closedAt: c.state.now(),
        mergeCommitSha: merged.sha,
      });
      return ok({ sha: merged.sha, merged: true, message: 'Pull Request successfully merged' });
    },
  },
];

const issueRoutes: Route[] = [
  {
    method: 'POST',
    path: `${REPO}/issues/{issue_number}/labels`,
    handle: (c) => {
      const pull = pullOr404(c);
      if (!pull) return fail(404, 'Not Found');
      pull.labels = [...new Set([...pull.labels, ...(c.body.labels as string[])])];
      return ok(pull.labels.map((l) => P.label(c.urls, c.state, l)));
    },
  },
  {
    method: 'PUT',
    path: `${REPO}/issues/{issue_number}/labels`,
    handle: (c) => {
      const pull = pullOr404(c);
      if (!pull) return fail(404, 'Not Found');
      pull.labels = [...new Set(c.body.labels as string[])];
      return ok(pull.labels.map((l) => P.label(c.urls, c.state, l)));
    },
  },
  {
    method: 'GET',
    path: `${REPO}/issues/{issue_number}/comments`,
    handle: (c) => {
      const pull = pullOr404(c);
      if (!pull) return fail(404, 'Not Found');
      return paged(
        c,
        pull.comments.map((body, i) => ({ body, i })),
        (page) => page.map((x) => P.issueComment(c.urls, c.state, pull.number, x.i + 1, x.body)),
      );
    },
  },
  {
    method: 'POST',
    path: `${REPO}/issues/{issue_number}/comments`,
    handle: (c) => {
      const pull = pullOr404(c);
      if (!pull) return fail(404, 'Not Found');
      pull.comments.push(c.body.body);
      return ok(P.issueComment(c.urls, c.state, pull.number, pull.comments.length, c.body.body), 201);
    },
  },
];

const checkRoutes: Route[] = [
  {
    method: 'GET',
    path: `${REPO}/commits/{ref}/check-runs`,
    handle: (c) => {
      const name = c.query.get('check_name');
      const runs = (c.state.checkRuns.get(c.params.ref) ?? []).filter((r) => !name || r.name === name);
      return paged(c, runs, (page) => ({
        total_count: runs.length,
        check_runs: page.map((r) => P.checkRun(c.urls, c.state, c.params.ref, r)),
      }));
    },
  },
  {
    method: 'GET',
    path: `${REPO}/commits/{ref}/status`,
    handle: (c) => ok(P.combinedStatus(c.urls, c.state, c.params.ref, c.state.statuses.get(c.params.ref) ?? [])),
  },
];

/** The fields of a check-runs POST/PATCH body the fake keeps. */
function runFields(body: {
  name: string;
  status?: 'queued' | 'in_progress' | 'completed';
  conclusion?: NonNullable<CheckRun['conclusion']>;
  output?: { title?: string; summary?: string; text?: string };
}): Omit<CheckRun, 'id'> {
  const o = body.output;
  return {
    name: body.name,
    status: body.conclusion ? 'completed' : (body.status ?? 'queued'),
    conclusion: body.conclusion ?? null,
    ...(o ? { output: { title: o.title ?? null, summary: o.summary ?? null, text: o.text ?? null } } : {}),
  };
}

const checkWriteRoutes: Route[] = [
  {
    method: 'POST',
    path: `${REPO}/check-runs`,
    handle: (c) => {
      if (!c.state.commits.has(c.body.head_sha)) return fail(422, 'No commit found for SHA');
      const run = c.state.putCheckRun(c.body.head_sha, runFields(c.body));
      return ok(P.checkRun(c.urls, c.state, c.body.head_sha, run!), 201);
    },
  },
  {
    method: 'PATCH',
    path: `${REPO}/check-runs/{check_run_id}`,
    handle: (c) => {
      const id = Number(c.params.check_run_id);
      const sha = c.state.shaOfCheckRun(id);
      const old = sha ? c.state.checkRuns.get(sha)!.find((r) => r.id === id) : undefined;
      if (!sha || !old) return fail(404, 'Not Found');
      const run = c.state.putCheckRun(sha, runFields({ ...c.body, name: c.body.name ?? old.name }), id);
      return ok(P.checkRun(c.urls, c.state, sha, run!));
    },
  },
];

export const ROUTES: readonly Route[] = [
  ...gitRoutes,
  ...pullRoutes,
  ...issueRoutes,
  ...checkRoutes,
  ...checkWriteRoutes,
];
