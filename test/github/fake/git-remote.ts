/**
 * The fake GitHub's git remote: a real bare repository served over smart HTTP by git's own
 * http-backend (CGI), behind GitHub's authentication (basic, password = the token, else 401) and
 * permission (403 on receive-pack when pushes are refused). Every push is imported into the
 * fake's RepoState, so the REST routes see the branches, commits and files it brought.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RepoState } from './state';

export interface GitRequest {
  readonly service: string;
  readonly method: string;
  readonly status: number;
  /** The Authorization header as git sent it (to check it carried the token, not argv or the URL). */
  readonly authorized: boolean;
}

export class GitRemote {
  readonly requests: GitRequest[] = [];
  /** Answer 403 to every push (no contents: write, or rollgen/* protected). */
  refusePush = false;
  private readonly root = mkdtempSync(join(tmpdir(), 'rollgen-fake-remote-'));
  readonly dir: string;

  constructor(
    private readonly repository: string,
    private readonly token: string,
  ) {
    this.dir = join(this.root, `${repository}.git`);
    mkdirSync(this.dir, { recursive: true });
    this.git(['init', '--quiet', '--bare', '--initial-branch=main']);
  }

  /** The checkout's HEAD becomes the remote's main. */
  seed(checkout: string): void {
    execFileSync('git', ['push', '--quiet', this.dir, 'HEAD:refs/heads/main'], { cwd: checkout });
  }

  /** Pushes that reached the remote (receive-pack POSTs), whatever their outcome. */
  get pushes(): number {
    return this.requests.filter((r) => r.method === 'POST' && r.service === 'git-receive-pack').length;
  }

  heads(): Map<string, string> {
    const out = this.git(['for-each-ref', '--format=%(objectname) %(refname:lstrip=2)', 'refs/heads']);
    return new Map(
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [sha, branch] = l.split(' ');
          return [branch, sha] as [string, string];
        }),
    );
  }

  /** Points `branch` at a new commit on top of it (a person's push), returning its sha. */
  pushAs(branch: string, message: string): string {
    const head = this.heads().get(branch)!;
    const tree = this.git(['rev-parse', `${head}^{tree}`]).trim();
    const sha = this.git(['commit-tree', tree, '-p', head, '-m', message], {
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    }).trim();
    this.git(['update-ref', `refs/heads/${branch}`, sha]);
    return sha;
  }

  /** Branch heads and their commits' files into the REST state (what GitHub shows after a push). */
  importInto(state: RepoState): void {
    for (const [branch, sha] of this.heads()) {
      if (!state.commits.has(sha)) this.importCommit(state, sha);
      state.branches.set(branch, sha);
    }
  }

  async serve(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer, state: RepoState): Promise<void> {
    const service = url.searchParams.get('service') ?? url.pathname.split('/').pop() ?? '';
    const authorized = this.authorized(req.headers.authorization);
    const method = req.method ?? 'GET';
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
      this.requests.push({ service, method, status, authorized });
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end(text);
    };
    if (!authorized) return answer(401, 'Unauthorized', { 'www-authenticate': 'Basic realm="GitHub"' });
    if (this.refusePush && service === 'git-receive-pack')
      return answer(403, `Permission to ${this.repository}.git denied to github-actions[bot].`);
    const cgi = await this.backend(req, url, body);
    this.requests.push({ service, method, status: cgi.status, authorized });
    res.writeHead(cgi.status, cgi.headers);
    res.end(cgi.body);
    if (method === 'POST' && service === 'git-receive-pack') this.importInto(state);
  }

  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  private authorized(header: string | undefined): boolean {
    const m = /^basic\s+(\S+)$/i.exec(header ?? '');
    if (!m) return false;
    const [, password] = /^[^:]*:(.*)$/.exec(Buffer.from(m[1], 'base64').toString('utf8')) ?? [];
    return password === this.token;
  }

  private backend(
    req: IncomingMessage,
    url: URL,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const env = {
      PATH: process.env.PATH ?? '',
      GIT_PROJECT_ROOT: this.root,
      GIT_HTTP_EXPORT_ALL: '1',
      REMOTE_USER: 'x-access-token',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      CONTENT_LENGTH: String(body.length),
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    };
    return new Promise((resolve, reject) => {
      const child = spawn('git', ['http-backend'], { env });
      const out: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.on('error', reject);
      child.on('close', () => resolve(parseCgi(Buffer.concat(out))));
      child.stdin.end(body);
    });
  }

  private importCommit(state: RepoState, sha: string): void {
    const [tree, ...rest] = this.git(['show', '-s', '--format=%T%n%P%n%B', sha]).split('\n');
    const parents = rest[0] ? rest[0].split(' ') : [];
    const message = rest.slice(1).join('\n');
    if (!state.trees.has(tree)) {
      const entries = this.git(['ls-tree', '-r', '-z', tree])
        .split('\0')
        .filter(Boolean)
        .map((e) => {
          const [meta, path] = e.split('\t');
          return { path, blob: meta.split(' ')[2] };
        });
      this.readBlobs(entries.map((e) => e.blob));
      state.trees.set(tree, new Map(entries.map((e) => [e.path, this.blobs.get(e.blob)!])));
    }
    state.commits.set(sha, { sha, tree, parents, message });
  }

  private readonly blobs = new Map<string, string>();

  /** Blobs not read yet, in one `git cat-file --batch`. */
  private readBlobs(shas: readonly string[]): void {
    const missing = [...new Set(shas.filter((s) => !this.blobs.has(s)))];
    if (missing.length === 0) return;
    const out = execFileSync('git', ['cat-file', '--batch'], {
      cwd: this.dir,
      input: missing.join('\n') + '\n',
      maxBuffer: 256 * 1024 * 1024,
    });
    let at = 0;
    for (const sha of missing) {
      const eol = out.indexOf(10, at);
      const size = Number(out.subarray(at, eol).toString('utf8').split(' ')[2]);
      this.blobs.set(sha, out.subarray(eol + 1, eol + 1 + size).toString('utf8'));
      at = eol + 1 + size + 1;
    }
  }

  private git(args: readonly string[], env: Record<string, string> = {}): string {
    return execFileSync('git', [...args], { cwd: this.dir, encoding: 'utf8', env: { ...process.env, ...env } });
  }
}

function parseCgi(raw: Buffer): { status: number; headers: Record<string, string>; body: Buffer } {
  const end = raw.indexOf('\r\n\r\n');
  const split = end >= 0 ? end : raw.indexOf('\n\n');
  const gap = end >= 0 ? 4 : 2;
  const headers: Record<string, string> = {};
  let status = 200;
  for (const line of raw.subarray(0, split).toString('utf8').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i < 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    if (name === 'status') status = Number(value.split(' ')[0]);
    else headers[name] = value;
  }
  return { status, headers, body: raw.subarray(split + gap) };
}
