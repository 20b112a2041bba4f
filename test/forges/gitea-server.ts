/**
 * A loopback Gitea for rollgen's Gitea/Forgejo client: its REST API under /api/v1 (routes in
 * gitea/routes.ts, answering as Gitea's API reference documents) and its git smart HTTP at
 * /{owner}/{repo}.git, a real bare repository behind git http-backend (the fake GitHub's
 * GitRemote, reused). Every request is recorded (for request counts) and checked against the
 * documented request fields (`violations`); faults are injectable per route; tokens carry scopes.
 */
import { execFileSync } from 'node:child_process';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitRemote } from '../github/fake/git-remote';
import { RepoState } from '../github/fake/state';
import { Call, fail, Reply, RepoGit, Route, ROUTES } from './gitea/routes';
import { GiteaState } from './gitea/state';

export interface GiteaServerOptions {
  /** The token's scopes (Gitea: Settings → Applications). @default every write scope */
  readonly scopes?: readonly string[];
  /** @default 'acme/deploy' */
  readonly repository?: string;
}

export interface Fault {
  readonly method: string;
  /** The route's path template, e.g. /repos/{owner}/{repo}/pulls */
  readonly route: string;
  readonly status: number;
  /** @default 1 */
  readonly times?: number;
  /** Do the work, then answer with the fault: the response was lost (a proxy's 502 after Gitea acted). */
  readonly afterHandling?: boolean;
}

const compile = (r: Route) => {
  const names: string[] = [];
  const source = r.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return name === 'branch' ? '(.+)' : '([^/]+)';
  });
  return { route: r, pattern: new RegExp(`^/api/v1${source}$`), names };
};

export class GiteaServer {
  readonly token = 'gitea_0123456789abcdef0123456789abcdef01234567';
  readonly state = new GiteaState();
  /** "METHOD /path-template status" per API request, in order. */
  readonly requests: { method: string; route: string; status: number }[] = [];
  readonly violations: string[] = [];
  readonly remote: GitRemote;
  private readonly mirror: RepoState;
  private readonly faults: (Fault & { left: number })[] = [];
  private readonly matchers = ROUTES.map(compile);
  private server: Server | undefined;
  private origin = '';

  private constructor(private readonly options: GiteaServerOptions) {
    const [owner, name] = this.repository.split('/');
    this.mirror = new RepoState(owner, name);
    this.remote = new GitRemote(this.repository, this.token);
  }

  static async start(options: GiteaServerOptions = {}): Promise<GiteaServer> {
    const s = new GiteaServer(options);
    s.server = createServer((req, res) => void s.serve(req, res));
    await new Promise<void>((resolve) => s.server?.listen(0, '127.0.0.1', resolve));
    s.origin = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
    return s;
  }

  get repository(): string {
    return this.options.repository ?? 'acme/deploy';
  }

  get serverUrl(): string {
    return this.origin;
  }

  get apiUrl(): string {
    return `${this.origin}/api/v1`;
  }

  /** The checkout's HEAD becomes main, in the bare repository and in the push importer's view. */
  seed(checkout: string): void {
    const run = (args: string[]) => execFileSync('git', args, { cwd: checkout, encoding: 'utf8' }).trim();
    const head = run(['rev-parse', 'HEAD']);
    const tree = run(['rev-parse', 'HEAD^{tree}']);
    this.mirror.trees.set(tree, new Map());
    this.mirror.commits.set(head, { sha: head, tree, parents: [], message: 'initial' });
    this.mirror.branches.set('main', head);
    this.remote.seed(checkout);
  }

  inject(fault: Fault): void {
    this.faults.push({ ...fault, left: fault.times ?? 1 });
  }

  /** Requests as "METHOD /path" lines with /repos/{owner}/{repo} dropped. */
  log(): string[] {
    return this.requests.map((r) => `${r.method} ${r.route.replace('/repos/{owner}/{repo}', '')}`);
  }

  /** Branch writes made through the API (POST /contents, DELETE /branches), in order. */
  readonly apiWrites: { branch: string; sha?: string; tree?: string; closed?: number }[] = [];

  readonly git: RepoGit = {
    heads: () => this.remote.heads(),
    merge: (base, head, method, message, at) => this.mergeInGit(base, head, method, message, at),
    dir: () => this.remote.dir,
    changed: (write) => {
      this.apiWrites.push(write);
      this.remote.importInto(this.mirror);
    },
  };

  async close(): Promise<void> {
    this.remote.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.origin);
    const body = Buffer.concat(chunks);
    if (url.pathname.startsWith(`/${this.repository}.git/`)) return this.remote.serve(req, res, url, body, this.mirror);
    const method = req.method ?? 'GET';
    const found = this.match(method, url.pathname);
    let reply: Reply;
    if (!found) {
      this.violations.push(`${method} ${url.pathname}: Gitea's API has no such route here`);
      reply = fail(404, 'not found');
    } else {
      reply = this.answer(found, method, url, body.toString('utf8'), req.headers.authorization ?? '');
      this.requests.push({ method, route: found.route.path, status: reply.status });
    }
    res.writeHead(reply.status, { 'content-type': 'application/json;charset=utf-8', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  }

  private match(method: string, pathname: string) {
    for (const m of this.matchers) {
      const hit = m.route.method === method ? m.pattern.exec(pathname) : null;
      if (hit)
        return {
          route: m.route,
          params: Object.fromEntries(m.names.map((n, i) => [n, decodeURIComponent(hit[i + 1])])),
        };
    }
    return undefined;
  }

  private answer(
    found: { route: Route; params: Record<string, string> },
    method: string,
    url: URL,
    text: string,
    auth: string,
  ): Reply {
    if (auth !== `token ${this.token}` && auth !== `Bearer ${this.token}`)
      return fail(401, 'user does not exist [uid: 0, name: ]');
    const needed = `${method === 'GET' ? 'read' : 'write'}:${found.route.scope}`;
    const scopes = this.options.scopes ?? ['write:repository', 'write:issue'];
    if (!scopes.some((s) => s === needed || s === `write:${found.route.scope}`))
      return fail(
        403,
        `token does not have at least one of required scope(s), required=[${needed}], token scope=${scopes.join(',')}`,
      );
    const body = text ? JSON.parse(text) : undefined;
    this.checkFields(found.route, method, body);
    const call: Call = {
      params: found.params,
      query: url.searchParams,
      body: body ?? {},
      site: { origin: this.origin, owner: this.repository.split('/')[0], name: this.repository.split('/')[1] },
      state: this.state,
      git: this.git,
      self: this.origin + url.pathname,
    };
    const fault = this.faults.find((f) => f.left > 0 && f.method === method && f.route === found.route.path);
    if (fault) {
      fault.left--;
      if (fault.afterHandling) found.route.handle(call);
      return fail(fault.status, 'Bad Gateway');
    }
    if (`${found.params.owner}/${found.params.repo}` !== this.repository)
      return fail(404, "The target couldn't be found.");
    return found.route.handle(call);
  }

  private checkFields(route: Route, method: string, body: unknown): void {
    if (!route.fields) return;
    const where = `${method} ${route.path}`;
    if (typeof body !== 'object' || body === null) return void this.violations.push(`${where}: no JSON body`);
    const known = route.fields.map((f) => f.replace(/^!/, ''));
    for (const key of Object.keys(body))
      if (!known.includes(key)) this.violations.push(`${where}: "${key}" is no documented field`);
    for (const f of route.fields.filter((x) => x.startsWith('!')))
      if (!(f.slice(1) in body)) this.violations.push(`${where}: required "${f.slice(1)}" missing`);
  }

  /** Gitea's merge styles in the bare repository: a merge commit, or one commit on the base (squash, rebase of one commit). */
  private mergeInGit(base: string, head: string, method: string, message: string, at: Date): string {
    const dir = this.remote.dir;
    const date = at.toISOString();
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 'Gitea',
      GIT_AUTHOR_EMAIL: 'gitea@noreply.example',
      GIT_COMMITTER_NAME: 'Gitea',
      GIT_COMMITTER_EMAIL: 'gitea@noreply.example',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    };
    const git = (args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env }).trim();
    const baseSha = git(['rev-parse', `refs/heads/${base}`]);
    const tree = git(['merge-tree', '--write-tree', baseSha, head]).split('\n')[0];
    const parents = method === 'merge' ? ['-p', baseSha, '-p', head] : ['-p', baseSha];
    const sha = git(['commit-tree', tree, ...parents, '-m', message]);
    git(['update-ref', `refs/heads/${base}`, sha, baseSha]);
    this.remote.importInto(this.mirror);
    return sha;
  }
}
