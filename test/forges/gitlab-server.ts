/**
 * A loopback GitLab REST API v4 as GitLab's API reference documents it: /api/v4/projects/:id/...
 * with the id a number or the URL-encoded project path, PRIVATE-TOKEN authentication, offset
 * pagination (x-next-page, x-total-pages, Link), RateLimit-* headers, GitLab's field names (iid,
 * source_branch, sha, detailed_merge_status, merged_at, labels as an array) and status codes. Its
 * repository is a real bare git repository served over git http-backend (test/github's GitRemote,
 * GitLab's basic authentication), read with git for branches and commits.
 */
import { execFileSync } from 'node:child_process';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitRemote } from '../github/fake/git-remote';
import { RepoState } from '../github/fake/state';
import { ROUTES } from './gitlab-routes';
import { mergeInBare } from './harness';

export interface MergeRequest {
  readonly iid: number;
  readonly source_branch: string;
  readonly target_branch: string;
  title: string;
  description: string;
  labels: string[];
  state: 'opened' | 'closed' | 'merged';
  readonly created_at: string;
  updated_at: string;
  merged_at: string | null;
  closed_at: string | null;
  merge_commit_sha: string | null;
  merged_by: { username: string } | null;
  /** The head when it stopped being open (its branch may move or go after). */
  last_sha: string;
  /** Auto-merge set ("merge when pipeline succeeds"): GitLab merges it when its head pipeline succeeds. */
  merge_when_pipeline_succeeds?: boolean;
  readonly notes: { id: number; body: string; created_at: string }[];
}

interface Status {
  readonly id: number;
  readonly name: string;
  readonly status: string;
  readonly description: string | null;
  readonly created_at: string;
}

interface Call {
  readonly method: string;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
}
type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
type Handler = (s: FakeGitLab, c: Call) => Reply;

const ok = (body: unknown, status = 200): Reply => ({ status, body });
/** A pipeline that has not finished. */
export const RUNNING = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'];
const fail = (status: number, message: unknown): Reply => ({ status, body: { message } });

export class FakeGitLab {
  readonly requests: { method: string; route: string; status: number }[] = [];
  readonly violations: string[] = [];
  readonly mrs = new Map<number, MergeRequest>();
  readonly statuses = new Map<string, Status[]>();
  readonly token = 'glpat-fake-token-0123456789abcdef';
  readonly projectId = 42;
  readonly git: GitRemote;
  /** GitRemote imports every push into a REST state; the fake reads git itself and keeps it only for that. */
  readonly state: RepoState;
  private readonly faults = new Map<string, number>();
  private readonly answers: {
    route: string;
    left: number;
    status: number;
    body: unknown;
    headers?: Record<string, string>;
  }[] = [];
  /** The token's scope: with read_api, every write is 403 insufficient_scope, as GitLab answers. */
  scope: 'api' | 'read_api' = 'api';
  /** Merge requests that need an approval nobody gave: their merge is refused (405, not_approved). */
  readonly unapproved = new Set<number>();
  /** The project's "Pipelines must succeed" (only_allow_merge_if_pipeline_succeeds). */
  requirePipeline = false;
  /**
   * Each merge request's head pipeline by iid: a merged results pipeline, run on the merge ref, so
   * the source commit's own last_pipeline stays empty (what GitLab shows for such a project).
   */
  readonly headPipelines = new Map<number, { id: number; status: string }>();
  /** The status of the pipeline GitLab starts for each new merge request (none when unset). */
  pipelineOnCreate: string | undefined;
  /** Commits made by POST /repository/commits (the REST fallback's writes), in order. */
  readonly apiCommits: { branch: string; sha: string; tree: string; force: boolean }[] = [];
  private ids = 100;
  private server!: Server;
  private origin = '';

  private constructor(readonly project: string) {
    this.git = new GitRemote(project, this.token);
    this.state = new RepoState(...(project.split('/').slice(-2) as [string, string]));
  }

  static async start(project = 'acme/platform/deploy'): Promise<FakeGitLab> {
    const fake = new FakeGitLab(project);
    fake.server = createServer((req, res) => void fake.serve(req, res));
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    fake.origin = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  get serverUrl(): string {
    return this.origin;
  }
  get apiUrl(): string {
    return `${this.origin}/api/v4`;
  }

  /** The checkout's HEAD is main. */
  seed(checkout: string): void {
    this.git.seed(checkout);
    const run = (args: string[]) => execFileSync('git', args, { cwd: checkout, encoding: 'utf8' }).trim();
    const head = run(['rev-parse', 'HEAD']);
    const tree = run(['rev-parse', 'HEAD^{tree}']);
    this.state.trees.set(tree, new Map());
    this.state.commits.set(head, { sha: head, tree, parents: [], message: 'initial' });
    this.state.branches.set('main', head);
  }

  /** After a change made in the bare repository directly (a person's push or merge). */
  imported(): void {
    this.git.importInto(this.state);
  }

  /** The next call of `METHOD /api/v4/...route` answers 502 (route as in ROUTES). */
  inject502(route: string): void {
    this.faults.set(route, (this.faults.get(route) ?? 0) + 1);
  }

  /** The next `times` calls of the route get this answer (a 429 with its headers, a 403 ...). */
  answer(route: string, status: number, body: unknown, headers?: Record<string, string>, times = 1): void {
    this.answers.push({ route, left: times, status, body, headers });
  }

  head(branch: string): string | undefined {
    return this.git.heads().get(branch);
  }

  now(): string {
    return new Date().toISOString();
  }

  nextId(): number {
    return ++this.ids;
  }

  /** Merges in git (a merge commit dated `at`) and marks the merge request merged, as GitLab's merge does. */
  merge(mr: MergeRequest, at: Date, by: string): void {
    const head = this.head(mr.source_branch)!;
    const sha = mergeInBare(
      this.git.dir,
      this.head(mr.target_branch)!,
      head,
      `Merge branch '${mr.source_branch}' into '${mr.target_branch}'\n\nSee merge request ${this.project}!${mr.iid}`,
      at,
    );
    this.imported();
    Object.assign(mr, {
      state: 'merged',
      merged_at: at.toISOString(),
      closed_at: null,
      updated_at: at.toISOString(),
      merge_commit_sha: sha,
      merged_by: { username: by },
      last_sha: head,
    });
  }

  async close(): Promise<void> {
    this.git.close();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  json(mr: MergeRequest): Record<string, unknown> {
    const sha = mr.state === 'opened' ? (this.head(mr.source_branch) ?? mr.last_sha) : mr.last_sha;
    return {
      id: mr.iid + 1000,
      iid: mr.iid,
      project_id: this.projectId,
      title: mr.title,
      description: mr.description,
      state: mr.state,
      created_at: mr.created_at,
      updated_at: mr.updated_at,
      merged_at: mr.merged_at,
      merged_by: mr.merged_by,
      closed_at: mr.closed_at,
      target_branch: mr.target_branch,
      source_branch: mr.source_branch,
      labels: mr.labels,
      draft: false,
      merge_status: mr.state === 'opened' ? 'can_be_merged' : 'unchecked',
      detailed_merge_status: this.mergeStatus(mr),
      merge_when_pipeline_succeeds: mr.merge_when_pipeline_succeeds === true,
      sha,
      merge_commit_sha: mr.merge_commit_sha,
      head_pipeline: this.headPipeline(mr),
      references: { short: `!${mr.iid}`, full: `${this.project}!${mr.iid}` },
      web_url: `${this.origin}/${this.project}/-/merge_requests/${mr.iid}`,
    };
  }

  headPipeline(mr: MergeRequest): Record<string, unknown> | null {
    const p = this.headPipelines.get(mr.iid);
    return p ? { id: p.id, iid: p.id, ref: `refs/merge-requests/${mr.iid}/merge`, status: p.status } : null;
  }

  /** GitLab's detailed_merge_status for what the fake models. */
  mergeStatus(mr: MergeRequest): string {
    const p = this.headPipelines.get(mr.iid)?.status;
    if (mr.state !== 'opened') return 'not_open';
    if (this.unapproved.has(mr.iid)) return 'not_approved';
    if (this.requirePipeline && p && RUNNING.includes(p)) return 'ci_still_running';
    if (this.requirePipeline && p !== 'success') return 'ci_must_pass';
    return 'mergeable';
  }

  /** The head pipeline ends (CI finished): on success an MR with auto-merge set is merged by GitLab; on failure auto-merge is cancelled. */
  finishPipeline(iid: number, status: 'success' | 'failed'): void {
    const mr = this.mrs.get(iid)!;
    this.headPipelines.set(iid, { id: this.headPipelines.get(iid)?.id ?? this.nextId(), status });
    if (!mr.merge_when_pipeline_succeeds) return;
    if (status === 'failed') mr.merge_when_pipeline_succeeds = false;
    else if (this.mergeStatus(mr) === 'mergeable') this.merge(mr, new Date(), 'rollgen-bot');
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.origin);
    if (url.pathname.startsWith(`/${this.project}.git/`))
      return this.git.serve(req, res, url, Buffer.concat(chunks), this.state);
    const method = req.method ?? 'GET';
    const found = match(method, url.pathname);
    let reply: Reply;
    if (!found) {
      this.violations.push(`${method} ${url.pathname}: GitLab has no such endpoint`);
      reply = fail(404, '404 Not Found');
    } else if (req.headers['private-token'] !== this.token && req.headers.authorization !== `Bearer ${this.token}`) {
      reply = fail(401, '401 Unauthorized');
    } else if (this.answers.some((a) => a.route === found.route && a.left > 0)) {
      const a = this.answers.find((x) => x.route === found.route && x.left > 0)!;
      a.left--;
      reply = { status: a.status, body: a.body, headers: a.headers };
    } else if (this.scope === 'read_api' && method !== 'GET') {
      reply = {
        status: 403,
        body: {
          error: 'insufficient_scope',
          error_description: 'The request requires higher privileges than provided by the access token.',
          scope: 'api',
        },
      };
    } else if (this.faults.get(found.route)) {
      this.faults.set(found.route, this.faults.get(found.route)! - 1);
      reply = { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' };
    } else if (found.params.id !== String(this.projectId) && found.params.id !== this.project) {
      reply = fail(404, '404 Project Not Found');
    } else {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (text && !String(req.headers['content-type']).startsWith('application/json'))
        this.violations.push(`${method} ${found.route}: JSON body without content-type application/json`);
      const perPage = Number(url.searchParams.get('per_page') ?? 20);
      if (perPage > 100) this.violations.push(`${method} ${found.route}: per_page ${perPage} > 100 (GitLab caps it)`);
      reply = found.handler(this, { method, params: found.params, query: url.searchParams, body });
    }
    if (found) this.requests.push({ method, route: found.route, status: reply.status });
    const served = this.requests.length;
    res.writeHead(reply.status, {
      'content-type': typeof reply.body === 'string' ? 'text/html' : 'application/json',
      'ratelimit-limit': '2000',
      'ratelimit-observed': String(served),
      'ratelimit-remaining': String(Math.max(0, 2000 - served)),
      'ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
      ...reply.headers,
    });
    res.end(reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
  }
}

/** One page of a list, with GitLab's offset pagination headers. */
export function paged<T>(c: Call, all: readonly T[], base: string): Reply {
  const perPage = Math.min(100, Number(c.query.get('per_page') ?? 20));
  const page = Math.max(1, Number(c.query.get('page') ?? 1));
  const pages = Math.max(1, Math.ceil(all.length / perPage));
  const link = (p: number, rel: string) => {
    const q = new URLSearchParams(c.query);
    q.set('page', String(p));
    return `<${base}?${q}>; rel="${rel}"`;
  };
  const links = [...(page < pages ? [link(page + 1, 'next')] : []), link(1, 'first'), link(pages, 'last')];
  return {
    status: 200,
    body: all.slice((page - 1) * perPage, page * perPage),
    headers: {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-total': String(all.length),
      'x-total-pages': String(pages),
      'x-next-page': page < pages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
      link: links.join(', '),
    },
  };
}

function match(
  method: string,
  pathname: string,
): { route: string; handler: Handler; params: Record<string, string> } | undefined {
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const names: string[] = [];
    const source = r.path.replace(/:(\w+)/g, (_m, n: string) => (names.push(n), n === 'branch' ? '(.+)' : '([^/]+)'));
    const hit = new RegExp(`^${source}$`).exec(pathname);
    if (hit)
      return {
        route: `${method} ${r.path}`,
        handler: r.handle,
        params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(hit[i + 1])])),
      };
  }
  return undefined;
}

export { ok, fail };
export type { Call, Reply, Handler };
