/** The shared scenarios over the fake GitHub (test/github/fake-github-server.ts) with its git remote. */
import { rmSync } from 'node:fs';
import { FakeGitHub } from '../github/fake-github-server';
import { ROUTES } from '../github/fake/routes';
import { seedFromCheckout } from '../github/helpers';
import { commitAll, makeRepo } from '../helpers/git-repo';
import { Change, ForgeHarness, ForgeRun, mergeInBare, pushHead, runPr, StatusState, syncCheckout } from './harness';

export class GitHubHarness implements ForgeHarness {
  readonly forge = 'github';
  private fake!: FakeGitHub;
  repo = '';

  async start(apps: readonly string[], config: string, at: Date): Promise<string> {
    this.fake = await FakeGitHub.start({ git: true });
    this.repo = makeRepo(apps, config, at);
    seedFromCheckout(this.fake, this.repo);
    // The scenarios date people's acts in real time (git history carries them): GitHub's updated_at too.
    this.fake.state.now = () => new Date().toISOString();
    // GitHub merges in git: the fake's REST merge is made a real merge commit on the remote, so the next checkout has it.
    this.fake.afterRequest = (method, route) => {
      if (method === 'PUT' && route.endsWith('/merge')) this.realizeMerges();
    };
    return this.repo;
  }

  async pr(command?: readonly string[]): Promise<ForgeRun> {
    syncCheckout(this.repo, this.bare);
    const before = this.fake.requests.length;
    const run = await runPr(
      this.repo,
      {
        GITHUB_TOKEN: this.fake.token,
        GITHUB_REPOSITORY: this.fake.repository,
        GITHUB_API_URL: this.fake.apiUrl,
        GITHUB_SERVER_URL: this.fake.serverUrl,
      },
      command,
    );
    return { ...run, requests: this.fake.requests.length - before };
  }

  mainHead(): string {
    return this.fake.git!.heads().get('main')!;
  }

  changes(): Change[] {
    return [...this.fake.state.pulls.values()].map((p) => ({
      number: p.number,
      ref: `#${p.number}`,
      branch: p.head,
      title: p.title,
      body: p.body ?? '',
      labels: [...p.labels],
      state: p.mergedAt ? 'merged' : p.state,
    }));
  }

  mergeAsPerson(number: number, at: Date): void {
    const pull = this.fake.state.pulls.get(number)!;
    const head = this.fake.state.headOf(pull);
    const main = this.fake.git!.heads().get('main')!;
    const sha = mergeInBare(this.bare, main, head, `Merge pull request #${number}`, at);
    this.fake.git!.importInto(this.fake.state);
    const when = at.toISOString();
    Object.assign(pull, {
      state: 'closed',
      lastHeadSha: head,
      mergedAt: when,
      closedAt: when,
      updatedAt: when,
      mergeCommitSha: sha,
    });
  }

  closeAsPerson(number: number): void {
    const pull = this.fake.state.pulls.get(number)!;
    const now = new Date().toISOString();
    Object.assign(pull, { state: 'closed', lastHeadSha: this.fake.state.headOf(pull), closedAt: now, updatedAt: now });
  }

  pushToMain(change: (repo: string) => void, message: string, at: Date): void {
    syncCheckout(this.repo, this.bare);
    change(this.repo);
    commitAll(this.repo, message, at);
    pushHead(this.repo, this.bare);
    this.fake.git!.importInto(this.fake.state);
  }

  postStatus(sha: string, context: string, state: StatusState, at?: Date): void {
    this.fake.state.addStatus(sha, context, state);
    const list = this.fake.state.statuses.get(sha)!;
    if (at) list[list.length - 1] = { ...list[list.length - 1], updatedAt: at.toISOString() };
  }

  analysisRecords(sha: string, name: string): string[] {
    return (this.fake.state.checkRuns.get(sha) ?? [])
      .filter((r) => r.name === name)
      .map((r) => r.conclusion ?? r.status);
  }

  failFirstCallOfEveryEndpoint(): void {
    for (const r of ROUTES) this.fake.inject({ method: r.method, route: r.path, status: 502 });
  }

  violations(): string[] {
    return this.fake.violations;
  }

  async stop(): Promise<void> {
    await this.fake?.close();
    if (this.repo) rmSync(this.repo, { recursive: true, force: true });
  }

  private get bare(): string {
    return this.fake.git!.dir;
  }

  /** PRs the REST merge closed whose merge is not in git yet: merged in the bare repository now. */
  private realizeMerges(): void {
    const heads = this.fake.git!.heads();
    for (const pull of this.fake.state.pulls.values()) {
      if (!pull.mergeCommitSha || this.fake.state.commits.get(pull.mergeCommitSha)?.parents.length !== 1) continue;
      if (heads.get('main') === pull.mergeCommitSha) continue;
      const sha = mergeInBare(
        this.bare,
        heads.get('main')!,
        pull.lastHeadSha,
        `Merge pull request #${pull.number}`,
        new Date(),
      );
      this.fake.git!.importInto(this.fake.state);
      pull.mergeCommitSha = sha;
    }
  }
}
