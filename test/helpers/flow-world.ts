import { runGit } from '../../src/io/git';
import { runCli, CliResult } from './cli';
import { Call, FakeScm } from './fake-scm';
import { bumpImage, commitAll, land, makeRepo } from './git-repo';

export const TOKEN = 'ghs_s3cretTokenValue0123456789abcdef';

export interface FlowRun extends CliResult {
  /** The seam calls this run made. */
  readonly calls: readonly Call[];
  readonly writes: readonly Call[];
}

/** A repository checkout on `main`, a fake GitHub and a clock that tests move forward. */
export class FlowWorld {
  now = new Date('2026-03-01T09:00:00Z');
  readonly fake = new FakeScm(() => this.now);
  readonly repo: string;
  private readonly landed = new Set<number>();
  /** Every git command line rollgen ran, oldest first. */
  readonly gitCalls: string[][] = [];
  env: Record<string, string | undefined> = {
    GITHUB_TOKEN: TOKEN,
    GITHUB_REPOSITORY: 'acme/deploy',
    GITHUB_API_URL: 'https://api.github.com',
  };

  constructor(apps: readonly string[], config: string) {
    this.repo = makeRepo(apps, config, this.now);
  }

  /** Runs `rollgen <args>` against the fake, then lets whatever rollgen merged reach the checkout. */
  async run(args: readonly string[]): Promise<FlowRun> {
    const mark = this.fake.calls.length;
    const git = (a: readonly string[], cwd: string) => (this.gitCalls.push([...a]), runGit(a, cwd));
    const r = await runCli(args, this.repo, '', { env: this.env, now: () => this.now, scm: () => this.fake, git });
    const calls = this.fake.calls.slice(mark);
    for (const text of [r.stdout, r.stderr]) if (text.includes(TOKEN)) throw new Error(`token printed:\n${text}`);
    this.syncMerges();
    return {
      ...r,
      calls,
      writes: calls.filter((c) =>
        ['commitToBranch', 'createPull', 'updatePull', 'mergePull', 'comment'].includes(c.op),
      ),
    };
  }

  /** App `echo` adopted, a new revision, steps 1..k merged by a person, the next step's PR open. */
  static async echoAtStep(config: string, k: number, prepare?: (repo: string) => void): Promise<FlowWorld> {
    const w = new FlowWorld(['echo'], config);
    if (prepare) {
      prepare(w.repo);
      commitAll(w.repo, 'prepare', w.now);
    }
    await w.pr();
    w.merge(w.openPr('rollgen/echo/adopt').number);
    await w.pr();
    await w.pr(); // merges the selector switch
    bumpImage(w.repo, 'echo', '2.54', w.now);
    for (let s = 1; s <= k; s++) {
      await w.pr();
      w.merge(w.openPr(`rollgen/echo/step-${s}`).number);
    }
    await w.pr();
    return w;
  }

  pr(...args: string[]): Promise<FlowRun> {
    return this.run(['pr', ...args]);
  }

  later(seconds: number): void {
    this.now = new Date(this.now.getTime() + seconds * 1000);
  }

  /** A person merges the PR in the UI and the checkout gets the new main. */
  merge(number: number): void {
    this.fake.personMerge(number);
    this.syncMerges();
  }

  /** The open PR of an app's branch; fails when there is none. */
  openPr(branch: string) {
    const pr = this.fake.open().find((p) => p.branch === branch);
    if (!pr)
      throw new Error(
        `no open PR on ${branch}; open: ${this.fake
          .open()
          .map((p) => p.branch)
          .join(', ')}`,
      );
    return pr;
  }

  private syncMerges(): void {
    for (const p of this.fake.pulls) {
      if (p.merged && !this.landed.has(p.number)) {
        this.landed.add(p.number);
        land(this.fake, this.repo, p.number, new Date(p.mergedAt!));
      }
    }
  }
}
