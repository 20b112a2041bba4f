/**
 * The shared scenarios over the loopback Gitea (gitea-server.ts): bin/rollgen runs as a Gitea
 * Actions job would (GITEA_ACTIONS=true and the GitHub-compatible variables act_runner sets), people
 * merge and close PRs in "the UI", and Flux's notification-controller (provider type gitea) posts
 * commit statuses as POST /repos/{owner}/{repo}/statuses/{sha} does.
 */
import { rmSync } from 'node:fs';
import { commitAll, makeRepo } from '../helpers/git-repo';
import { runProcess } from '../helpers/run-process';
import { BIN, Change, ForgeHarness, ForgeRun, pushHead, StatusState, syncCheckout, takeNotices } from './harness';
import { GiteaServer, GiteaServerOptions } from './gitea-server';
import { ROUTES } from './gitea/routes';
import { parseRecord } from '../../src/scm/gitea/records';

export class GiteaHarness implements ForgeHarness {
  readonly forge = 'gitea';
  server!: GiteaServer;
  repo = '';
  /** Per run: the API requests as "METHOD /route" lines, and the git pushes. */
  readonly runLog: { requests: string[]; pushes: number }[] = [];
  /** Refuse every git push (a protected rollgen/* branch): branches go through the contents API. */
  refusePush = false;
  /** Per run, the push-refused notices taken out of its stderr (each run says it at most once). */
  readonly notices: string[][] = [];
  /** Per run, the branch writes it made through the API. */
  readonly writesPerRun: number[] = [];

  constructor(
    private readonly options: GiteaServerOptions = {},
    private readonly extraEnv: Readonly<Record<string, string>> = {},
  ) {}

  async start(apps: readonly string[], config: string, at: Date): Promise<string> {
    this.server = await GiteaServer.start(this.options);
    this.repo = makeRepo(apps, config, at);
    this.server.seed(this.repo);
    this.server.remote.refusePush = this.refusePush;
    return this.repo;
  }

  async pr(command: readonly string[] = ['pr']): Promise<ForgeRun> {
    return this.prWith(
      {
        GITEA_ACTIONS: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_TOKEN: this.server.token,
        GITHUB_REPOSITORY: this.server.repository,
        GITHUB_SERVER_URL: this.server.serverUrl,
        GITHUB_API_URL: this.server.apiUrl,
        ...this.extraEnv,
      },
      command.slice(1),
      command[0],
    );
  }

  /** `rollgen pr ARGS` with exactly `env` as the CI's variables, after the checkout fetched main. */
  async prWith(env: Readonly<Record<string, string>>, args: readonly string[] = [], command = 'pr'): Promise<ForgeRun> {
    syncCheckout(this.repo, this.server.remote.dir);
    const before = this.server.requests.length;
    const pushes = this.server.remote.pushes;
    const writes = this.server.apiWrites.length;
    const base = { ...process.env };
    for (const k of [
      'GITLAB_CI',
      'GITEA_ACTIONS',
      'FORGEJO_ACTIONS',
      'ROLLGEN_FORGE',
      'GITHUB_TOKEN',
      'GITHUB_API_URL',
      'GITHUB_SERVER_URL',
      'GITHUB_REPOSITORY',
    ])
      delete base[k];
    const run = await runProcess(process.execPath, [BIN, command, ...args], {
      cwd: this.repo,
      env: { ...base, ROLLGEN_TEST_RETRY_UNIT_MS: '5', ...env },
    });
    for (const text of [run.stdout, run.stderr])
      if (text.includes(this.server.token)) throw new Error(`the token was printed:\n${text}`);
    this.runLog.push({ requests: this.server.log().slice(before), pushes: this.server.remote.pushes - pushes });
    const { stderr, notices } = takeNotices(run.stderr);
    this.notices.push(notices);
    this.writesPerRun.push(this.server.apiWrites.length - writes);
    return { ...run, stderr, requests: this.server.requests.length - before };
  }

  mainHead(): string {
    return this.server.git.heads().get('main')!;
  }

  changes(): Change[] {
    const labels = this.server.state.labels;
    return [...this.server.state.pulls.values()].map((p) => ({
      number: p.number,
      ref: `#${p.number}`,
      branch: p.head,
      title: p.title,
      body: p.body,
      labels: p.labels.map((id) => labels.find((l) => l.id === id)!.name),
      state: p.mergedAt ? 'merged' : p.state,
    }));
  }

  /** A person presses "Create merge commit": Gitea merges in git, merged_by is the person. */
  mergeAsPerson(number: number, at: Date): void {
    const p = this.server.state.pulls.get(number)!;
    const head = this.server.git.heads().get(p.head)!;
    p.mergeCommitSha = this.server.git.merge(p.base, head, 'merge', `Merge pull request '${p.title}' (#${number})`, at);
    const when = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
    Object.assign(p, {
      headSha: head,
      state: 'closed',
      mergedAt: when,
      closedAt: when,
      updatedAt: when,
      mergedBy: 'ada',
    });
  }

  closeAsPerson(number: number): void {
    const p = this.server.state.pulls.get(number)!;
    p.headSha = this.server.git.heads().get(p.head) ?? p.headSha;
    const now = this.server.state.now();
    Object.assign(p, { state: 'closed', closedAt: now, updatedAt: now });
  }

  pushToMain(change: (repo: string) => void, message: string, at: Date): void {
    syncCheckout(this.repo, this.server.remote.dir);
    change(this.repo);
    commitAll(this.repo, message, at);
    pushHead(this.repo, this.server.remote.dir);
  }

  /** What notification-controller's gitea notifier stores: state, context, description (target_url empty). */
  postStatus(sha: string, context: string, state: StatusState, at?: Date): void {
    const s = this.server.state;
    const createdAt = at ? at.toISOString().replace(/\.\d{3}Z$/, 'Z') : s.now();
    s.statuses.push({ id: s.nextId(), sha, context, state, description: 'reconciliation', targetUrl: '', createdAt });
  }

  /** The record's state: the commit status (context = name), checked against the PR comment it links to. */
  analysisRecords(sha: string, name: string): string[] {
    return this.server.state
      .latestStatuses(sha)
      .filter((s) => s.context === name)
      .map((s) => {
        const id = Number(/#issuecomment-(\d+)$/.exec(s.targetUrl)?.[1]);
        const comment = this.server.state.comments.get(id);
        const record = comment && parseRecord(comment.id, comment.body);
        if (!record?.output?.text?.includes('```json rollgen-analysis'))
          throw new Error(`status ${name} links to no record`);
        return s.state;
      });
  }

  failFirstCallOfEveryEndpoint(): void {
    for (const r of ROUTES) this.server.inject({ method: r.method, route: r.path, status: 502 });
  }

  violations(): string[] {
    return this.server.violations;
  }

  async stop(): Promise<void> {
    await this.server?.close();
    if (this.repo) rmSync(this.repo, { recursive: true, force: true });
  }
}
