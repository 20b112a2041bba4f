/**
 * rollgen's Gitea flow as a user runs it: bin/rollgen in a runner's checkout (synced to the
 * loopback Gitea's main before each run, as actions/checkout does), GITEA_ACTIONS=true and the
 * GitHub-compatible variables Gitea Actions sets. A person merges and closes PRs, and an engine
 * (Flux's notification-controller) posts commit statuses, through the same server.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { git, makeRepo } from '../helpers/git-repo';
import { ProcessResult, runProcess } from '../helpers/run-process';
import { GiteaServer, GiteaServerOptions } from './gitea-server';
import type { Pull } from './gitea/state';

const BIN = join(__dirname, '..', '..', 'bin', 'rollgen');

export interface GiteaRun extends ProcessResult {
  /** The API requests this run sent, as "METHOD /route" lines. */
  readonly requests: readonly string[];
  /** git pushes (receive-pack POSTs) this run made. */
  readonly pushes: number;
}

export class GiteaWorld {
  private constructor(
    readonly server: GiteaServer,
    readonly repo: string,
  ) {}

  static async start(apps: readonly string[], config: string, options: GiteaServerOptions = {}): Promise<GiteaWorld> {
    const server = await GiteaServer.start(options);
    const repo = makeRepo(apps, config, server.state.clock);
    server.seed(repo);
    return new GiteaWorld(server, repo);
  }

  async close(): Promise<void> {
    await this.server.close();
    rmSync(this.repo, { recursive: true, force: true });
  }

  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      ...process.env,
      GITHUB_TOKEN: this.server.token,
      GITHUB_REPOSITORY: this.server.repository,
      GITHUB_SERVER_URL: this.server.serverUrl,
      GITHUB_API_URL: this.server.apiUrl,
      GITEA_ACTIONS: 'true',
      GITHUB_ACTIONS: 'true',
      ROLLGEN_TEST_RETRY_UNIT_MS: '1',
      ...extra,
    };
  }

  /** One scheduled run: the checkout gets Gitea's main, then `rollgen <args>`. */
  async run(args: readonly string[] = ['pr'], extra: Record<string, string> = {}): Promise<GiteaRun> {
    this.sync();
    const mark = this.server.requests.length;
    const pushes = this.server.remote.pushes;
    const r = await runProcess(process.execPath, [BIN, ...args], { cwd: this.repo, env: this.env(extra) });
    for (const text of [r.stdout, r.stderr]) if (text.includes(this.server.token)) throw new Error(`token printed:\n${text}`);
    return {
      ...r,
      requests: this.server.log().slice(mark),
      pushes: this.server.remote.pushes - pushes,
    };
  }

  /** The runner's checkout at Gitea's main (no request counted: actions/checkout's fetch). */
  sync(): void {
    git(this.repo, ['fetch', '--quiet', this.server.remote.dir, 'main']);
    git(this.repo, ['reset', '--quiet', '--hard', 'FETCH_HEAD']);
  }

  /** A person pushes a commit to main (a new image for `app`), dated by Gitea's clock. */
  personPush(change: (repo: string) => void, message: string): void {
    this.sync();
    change(this.repo);
    git(this.repo, ['add', '--all'], this.server.state.clock);
    if (git(this.repo, ['status', '--porcelain']).trim())
      git(this.repo, ['commit', '--quiet', '-m', message], this.server.state.clock);
    execFileSync('git', ['push', '--quiet', this.server.remote.dir, 'HEAD:refs/heads/main'], { cwd: this.repo });
  }

  open(): Pull[] {
    return [...this.server.state.pulls.values()].filter((p) => p.state === 'open');
  }

  openPr(branch: string): Pull {
    const p = this.open().find((x) => x.head === branch);
    if (!p) throw new Error(`no open PR on ${branch}; open: ${this.open().map((x) => x.head).join(', ')}`);
    return p;
  }

  /** A person merges in Gitea's UI (a merge commit dated by Gitea's clock). */
  personMerge(number: number): void {
    const p = this.server.state.pulls.get(number)!;
    const head = this.server.git.heads().get(p.head)!;
    p.mergeCommitSha = this.server.git.merge(p.base, head, 'merge', `Merge pull request '${p.title}' (#${number})`, this.server.state.clock);
    const at = this.server.state.now();
    Object.assign(p, { headSha: head, state: 'closed', mergedAt: at, closedAt: at, updatedAt: at, mergedBy: 'ada' });
  }

  /** A person closes the PR without merging. */
  personClose(number: number): void {
    const p = this.server.state.pulls.get(number)!;
    p.headSha = this.server.git.heads().get(p.head) ?? p.headSha;
    Object.assign(p, { state: 'closed', closedAt: this.server.state.now(), updatedAt: this.server.state.now() });
  }

  /** What Flux's notification-controller (provider type gitea) posts: POST /statuses/{sha} with its context. */
  async engineStatus(sha: string, context: string, state: 'pending' | 'success' | 'failure', description: string): Promise<void> {
    const res = await fetch(`${this.server.apiUrl}/repos/${this.server.repository}/statuses/${sha}`, {
      method: 'POST',
      headers: { authorization: `token ${this.server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ state, context, description, target_url: '' }),
    });
    if (res.status !== 201) throw new Error(`status not posted: ${res.status}`);
  }

  mainHead(): string {
    return this.server.git.heads().get('main')!;
  }

  later(seconds: number): void {
    this.server.state.clock = new Date(this.server.state.clock.getTime() + seconds * 1000);
  }
}
