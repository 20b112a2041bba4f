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

  /**
   * Branch heads and their commits' files into the REST state (what GitHub shows after a push), in
   * four git starts however many commits: metadata by one `log --no-walk`, each commit's changes to
   * its parent (already known: pushes build on the seeded base) by one `diff-tree --stdin`, new
   * blobs by one `cat-file --batch`.
   */
  importInto(state: RepoState): void {
    const heads = this.heads();
    const tips = [...new Set(heads.values())].filter((sha) => !state.commits.has(sha));
    // Parents first: a push may bring the base's new commits with the branches on top of them.
    const fresh = tips.length
      ? this.git(['rev-list', '--topo-order', '--reverse', ...tips, '--not', ...this.present(state.branches.values())])
          .split('\n')
          .filter((sha) => sha && !state.commits.has(sha))
      : [];
    if (fresh.length > 0) this.importCommits(state, fresh);
    for (const [branch, sha] of heads) state.branches.set(branch, sha);
  }

  /** The shas the bare repository has (the REST side may hold commits it made itself). */
  private present(shas: Iterable<string>): string[] {
    const list = [...new Set(shas)];
    if (list.length === 0) return [];
    const out = this.git(['cat-file', '--batch-check'], {}, list.join('\n') + '\n').split('\n');
    return list.filter((_, i) => !/ missing$/.test(out[i]));
  }

  private importCommits(state: RepoState, shas: readonly string[]): void {
    const meta = this.git(['log', '--no-walk=unsorted', '--format=%H%x00%T%x00%P%x00%B%x01', ...shas]);
    const commits = meta
      .split('\x01')
      .map((c) => c.replace(/^\n/, ''))
      .filter(Boolean)
      .map((c) => {
        const [sha, tree, parents, message] = c.split('\0');
        return { sha, tree, parents: parents ? parents.split(' ') : [], message };
      });
    const changes = this.changesOf(shas);
    this.readBlobs([...changes.values()].flatMap((list) => list.flatMap((c) => (c.blob ? [c.blob] : []))));
    for (const c of commits) {
      const base = state.trees.get(state.commits.get(c.parents[0])?.tree ?? '');
      if (!base) throw new Error(`the fake git remote knows no parent of ${c.sha}: seed the base first`);
      const files = new Map(base);
      for (const ch of changes.get(c.sha) ?? []) {
        if (ch.blob) files.set(ch.path, this.blobs.get(ch.blob)!);
        else files.delete(ch.path);
      }
      state.trees.set(c.tree, files);
      state.commits.set(c.sha, { sha: c.sha, tree: c.tree, parents: c.parents, message: c.message });
    }
  }

  /** Per commit, the files it changes against its first parent: the new blob, or none for a deletion. */
  private changesOf(shas: readonly string[]): Map<string, { path: string; blob?: string }[]> {
    const out = new Map<string, { path: string; blob?: string }[]>();
    let current: { path: string; blob?: string }[] = [];
    const text = this.git(['diff-tree', '--stdin', '-r', '--no-renames', '-z'], {}, shas.join('\n') + '\n');
    const fields = text.split('\0');
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (/^[0-9a-f]{40}$/.test(f.trim())) {
        out.set(f.trim(), (current = []));
      } else if (f.startsWith(':')) {
        const [, , , blob, status] = f.slice(1).split(' ');
        const path = fields[++i];
        current.push(status === 'D' ? { path } : { path, blob });
      }
    }
    return out;
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
    // As on GitHub, what a push brought is there for the API once the push has its answer.
    if (method === 'POST' && service === 'git-receive-pack') this.importInto(state);
    res.writeHead(cgi.status, cgi.headers);
    res.end(cgi.body);
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
      // http-backend may answer and exit without reading the whole body (a refusal): its answer stands.
      child.stdin.on('error', () => undefined);
      child.stdin.end(body);
    });
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

  private git(args: readonly string[], env: Record<string, string> = {}, input?: string): string {
    return execFileSync('git', [...args], {
      cwd: this.dir,
      encoding: 'utf8',
      env: { ...process.env, ...env },
      input,
      maxBuffer: 256 * 1024 * 1024,
    });
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
