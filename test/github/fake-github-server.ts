/**
 * A fake GitHub REST API on 127.0.0.1 for the Octokit client and Action tests: an in-memory
 * repository behind the routes in fake/routes.ts, every exchange checked against GitHub's OpenAPI
 * description (problems land in `violations`, which tests assert empty), every request recorded
 * (for request counts), and faults injectable per route (5xx, rate limits, hostile bodies).
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkRequest, checkResponse } from './fake/openapi';
import { Call, fail, Reply, Route, ROUTES } from './fake/routes';
import { RepoState } from './fake/state';
import { GitRemote } from './fake/git-remote';

export interface FakeGitHubOptions {
  /** The only token accepted; anything else gets 401. @default 'ghs_fake-token-0123456789' */
  readonly token?: string;
  /** '' for api.github.com's layout, '/api/v3' for GitHub Enterprise Server. @default '' */
  readonly basePath?: string;
  /** @default 'octo/demo' */
  readonly repository?: string;
  /** Serve the repository over git's smart HTTP too, at `<origin>/<owner>/<name>.git` (see fake/git-remote.ts). */
  readonly git?: boolean;
  /** The core rate limit's window GitHub reports in x-ratelimit-* headers. @default 5000 */
  readonly rateLimit?: number;
}

export interface RecordedRequest {
  readonly method: string;
  /** GitHub's path template, e.g. /repos/{owner}/{repo}/git/refs */
  readonly route: string;
  readonly status: number;
}

export interface Fault {
  readonly method: string;
  readonly route: string;
  readonly status: number;
  /** How many matching requests get the fault. @default 1 */
  readonly times?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Never answer (the connection stays open until the fake closes): GitHub hanging. */
  readonly hang?: boolean;
  /** Serve the request as usual, then answer with the fault: GitHub did the work but the response was lost (a 502 from a proxy). */
  readonly afterHandling?: boolean;
  /** A body, or one built from the request headers (to play a server that echoes credentials). */
  readonly body?:
    | Readonly<Record<string, unknown>>
    | ((headers: IncomingMessage['headers']) => Readonly<Record<string, unknown>>);
}

interface Matcher {
  readonly route: Route;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

// A trailing {ref} may hold slashes (heads/rollgen/app); every other parameter is one segment.
function compileRoute(route: Route): Matcher {
  const names: string[] = [];
  const source = route.path.replace(/\{(\w+)\}(\/?)/g, (_m, name: string, slash: string) => {
    names.push(name);
    return name === 'ref' && slash === '' ? '(.+)' : `([^/]+)${slash}`;
  });
  return { route, pattern: new RegExp(`^${source}$`), names };
}

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  readonly violations: string[] = [];
  readonly state: RepoState;
  readonly token: string;
  /** The git remote, when started with `git: true`. */
  readonly git: GitRemote | undefined;
  /** Called after each REST request is answered (a test moving a branch between a run's scan and its push). */
  afterRequest: ((method: string, route: string) => void) | undefined;
  private readonly faults: (Fault & { left: number })[] = [];
  private served = 0;
  private readonly matchers = ROUTES.map(compileRoute);
  private server: Server | undefined;
  private origin = '';

  private constructor(private readonly options: FakeGitHubOptions) {
    const [owner, name] = (options.repository ?? 'octo/demo').split('/');
    this.state = new RepoState(owner, name);
    this.token = options.token ?? 'ghs_fake-token-0123456789';
    this.git = options.git ? new GitRemote(this.repository, this.token) : undefined;
  }

  static async start(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
    const fake = new FakeGitHub(options);
    fake.server = createServer((req, res) => void fake.serve(req, res));
    await new Promise<void>((resolve) => fake.server?.listen(0, '127.0.0.1', resolve));
    fake.origin = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  /** What to give rollgen as GITHUB_SERVER_URL: the git remote's origin. */
  get serverUrl(): string {
    return this.origin;
  }

  /** What to give Octokit as baseUrl (GITHUB_API_URL). */
  get apiUrl(): string {
    return this.origin + (this.options.basePath ?? '');
  }

  get repository(): string {
    return `${this.state.owner}/${this.state.name}`;
  }

  inject(fault: Fault): void {
    this.faults.push({ ...fault, left: fault.times ?? 1 });
  }

  /** Requests since the last reset, as "METHOD route" lines in order. */
  log(): string[] {
    return this.requests.map((r) => `${r.method} ${r.route.replace('/repos/{owner}/{repo}', '')}`);
  }

  resetLog(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.git?.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', this.origin);
    if (this.git && url.pathname.startsWith(`/${this.repository}.git/`))
      return this.git.serve(req, res, url, Buffer.concat(chunks), this.state);
    const found = this.match(method, url.pathname);
    const hang =
      found && this.faults.find((f) => f.hang && f.left > 0 && f.method === method && f.route === found.route.path);
    if (hang && found) {
      hang.left--;
      this.requests.push({ method, route: found.route.path, status: 0 });
      return;
    }
    const reply = found
      ? this.answer(method, found, url, Buffer.concat(chunks).toString('utf8'), req.headers)
      : fail(404, 'Not Found');
    if (!found) this.violations.push(`${method} ${url.pathname}: the fake serves no such route`);
    else this.requests.push({ method, route: found.route.path, status: reply.status });
    res.writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      ...this.rateLimitHeaders(),
      ...reply.headers,
    });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    if (found) this.afterRequest?.(method, found.route.path);
  }

  /** GitHub's x-ratelimit-* headers: the window shrinks by one per request answered. */
  private rateLimitHeaders(): Record<string, string> {
    const limit = this.options.rateLimit ?? 5000;
    this.served++;
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - this.served)),
      'x-ratelimit-reset': String(Date.UTC(2026, 0, 1, 1) / 1000),
      'x-ratelimit-resource': 'core',
      'x-ratelimit-used': String(Math.min(limit, this.served)),
    };
  }

  private match(method: string, pathname: string): { route: Route; params: Record<string, string> } | undefined {
    const base = this.options.basePath ?? '';
    if (!pathname.startsWith(base)) return undefined;
    const path = pathname.slice(base.length);
    for (const m of this.matchers) {
      const hit = m.route.method === method ? m.pattern.exec(path) : null;
      if (hit)
        return {
          route: m.route,
          params: Object.fromEntries(m.names.map((n, i) => [n, decodeURIComponent(hit[i + 1])])),
        };
    }
    return undefined;
  }

  private answer(
    method: string,
    found: { route: Route; params: Record<string, string> },
    url: URL,
    text: string,
    headers: IncomingMessage['headers'],
  ): Reply {
    const auth = headers.authorization ?? '';
    if (auth !== `token ${this.token}` && auth !== `Bearer ${this.token}`) return fail(401, 'Bad credentials');
    const body = text.length > 0 ? JSON.parse(text) : undefined;
    // Octokit sends an empty body for a PATCH with no fields: record it and answer, never hang the client.
    if (method === 'PATCH' && body === undefined) {
      this.violations.push(`${method} ${found.route.path}: no JSON body`);
      return fail(400, 'Problems parsing JSON');
    }
    this.violations.push(...checkRequest(method, found.route.path, url.searchParams, body));
    const fault = this.faults.find((f) => f.left > 0 && f.method === method && f.route === found.route.path);
    if (fault && fault.afterHandling && `${found.params.owner}/${found.params.repo}` === this.repository) {
      found.route.handle({
        params: found.params,
        query: url.searchParams,
        body,
        urls: { api: this.apiUrl, html: this.origin },
        state: this.state,
        self: this.origin + url.pathname,
      });
    }
    if (fault) {
      fault.left--;
      const faultBody =
        typeof fault.body === 'function' ? fault.body(headers) : (fault.body ?? { message: 'Server Error' });
      return { status: fault.status, body: faultBody, headers: fault.headers };
    }
    const [owner, repo] = [found.params.owner, found.params.repo];
    if (`${owner}/${repo}` !== this.repository) return fail(404, 'Not Found');
    const call: Call = {
      params: found.params,
      query: url.searchParams,
      body,
      urls: { api: this.apiUrl, html: this.origin },
      state: this.state,
      self: this.origin + url.pathname,
    };
    const reply = found.route.handle(call);
    this.violations.push(...checkResponse(method, found.route.path, reply.status, reply.body));
    return reply;
  }
}
