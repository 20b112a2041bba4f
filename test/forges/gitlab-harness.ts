/** The shared scenarios over the loopback GitLab (gitlab-server.ts), rollgen run as a GitLab CI job would run it. */
import { rmSync } from 'node:fs';
import { commitAll, makeRepo } from '../helpers/git-repo';
import { FakeGitLab } from './gitlab-server';
import { ROUTES } from './gitlab-routes';
import { Change, ForgeHarness, ForgeRun, pushHead, runPr, StatusState, syncCheckout, takeNotices } from './harness';

const FLUX_STATE: Record<StatusState, string> = {
  pending: 'running',
  success: 'success',
  failure: 'failed',
  error: 'failed',
};

export class GitLabHarness implements ForgeHarness {
  readonly forge = 'gitlab';
  fake!: FakeGitLab;
  repo = '';
  /** CI variables to change for the next runs (a wrong project path ...). */
  env: Record<string, string> = {};
  /** Refuse every git push (a protected rollgen/* branch): branches go through the commits API. */
  refusePush = false;
  /** Per run, the push-refused notices taken out of its stderr (each run says it at most once). */
  readonly notices: string[][] = [];
  /** Per run, the commits it made through POST /repository/commits. */
  readonly commitsPerRun: number[] = [];

  async start(apps: readonly string[], config: string, at: Date): Promise<string> {
    this.fake = await FakeGitLab.start();
    this.fake.git.refusePush = this.refusePush;
    this.repo = makeRepo(apps, config, at);
    this.fake.seed(this.repo);
    return this.repo;
  }

  async pr(command?: readonly string[]): Promise<ForgeRun> {
    syncCheckout(this.repo, this.fake.git.dir);
    const before = this.fake.requests.length;
    const commits = this.fake.apiCommits.length;
    // What a GitLab CI job has (https://docs.gitlab.com/ci/variables/predefined_variables/), plus the token variable.
    const run = await runPr(
      this.repo,
      {
        GITLAB_CI: 'true',
        CI_API_V4_URL: this.fake.apiUrl,
        CI_SERVER_URL: this.fake.serverUrl,
        CI_PROJECT_ID: String(this.fake.projectId),
        CI_PROJECT_PATH: this.fake.project,
        CI_JOB_TOKEN: 'job-token-that-cannot-open-merge-requests',
        ROLLGEN_GITLAB_TOKEN: this.fake.token,
        ...this.env,
      },
      command,
    );
    const { stderr, notices } = takeNotices(run.stderr);
    this.notices.push(notices);
    this.commitsPerRun.push(this.fake.apiCommits.length - commits);
    return { ...run, stderr, requests: this.fake.requests.length - before };
  }

  mainHead(): string {
    return this.fake.head('main')!;
  }

  changes(): Change[] {
    return [...this.fake.mrs.values()].map((m) => ({
      number: m.iid,
      ref: `!${m.iid}`,
      branch: m.source_branch,
      title: m.title,
      body: m.description,
      labels: [...m.labels],
      state: m.state === 'opened' ? 'open' : m.state,
    }));
  }

  mergeAsPerson(iid: number, at: Date): void {
    this.fake.merge(this.fake.mrs.get(iid)!, at, 'ada');
  }

  closeAsPerson(iid: number): void {
    const mr = this.fake.mrs.get(iid)!;
    const now = this.fake.now();
    Object.assign(mr, { state: 'closed', closed_at: now, updated_at: now, last_sha: this.fake.head(mr.source_branch) });
  }

  pushToMain(change: (repo: string) => void, message: string, at: Date): void {
    syncCheckout(this.repo, this.fake.git.dir);
    change(this.repo);
    commitAll(this.repo, message, at);
    pushHead(this.repo, this.fake.git.dir);
    this.fake.imported();
  }

  /** Flux's gitlab provider posts commit statuses (POST /projects/:id/statuses/:sha) with GitLab's states. */
  postStatus(sha: string, context: string, state: StatusState, at?: Date): void {
    const created = at?.toISOString() ?? this.fake.now();
    const st = {
      id: this.fake.nextId(),
      name: context,
      status: FLUX_STATE[state],
      description: `${context}: ${state}`,
      created_at: created,
    };
    this.fake.statuses.set(sha, [...(this.fake.statuses.get(sha) ?? []), st]);
  }

  analysisRecords(sha: string, name: string): string[] {
    const mapped: Record<string, string> = {
      success: 'success',
      failed: 'failure',
      running: 'in_progress',
      pending: 'action_required',
    };
    const list = this.fake.statuses.get(sha) ?? [];
    const latest = list.filter((s) => s.name === name && !list.some((o) => o.name === name && o.id > s.id));
    return latest.map((s) => mapped[s.status] ?? s.status);
  }

  failFirstCallOfEveryEndpoint(): void {
    for (const r of ROUTES) this.fake.inject502(`${r.method} ${r.path}`);
  }

  violations(): string[] {
    return this.fake.violations;
  }

  async stop(): Promise<void> {
    await this.fake?.close();
    if (this.repo) rmSync(this.repo, { recursive: true, force: true });
  }
}
