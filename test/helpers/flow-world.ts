import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
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

  constructor(apps: readonly string[], config: string, repo?: string) {
    this.repo = repo ?? makeRepo(apps, config, this.now);
  }

  /** An independent copy: its own checkout (a copy of this one, git directory included) and code host. */
  copy(): FlowWorld {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-flow-'));
    fs.cpSync(this.repo, repo, { recursive: true });
    const w = new FlowWorld([], '', repo);
    w.now = this.now;
    (w as { fake: FakeScm }).fake = this.fake.copy(() => w.now);
    w.env = { ...this.env };
    this.landed.forEach((n) => w.landed.add(n));
    w.gitCalls.push(...this.gitCalls.map((c) => [...c]));
    return w;
  }

  /** An Argo app's selector switch waits for a person (src/flow/target.ts selectWaitsForPerson): merge it as one would. */
  confirmSelect(app: string): void {
    const select = this.fake.open().find((p) => p.branch === `rollgen/${app}/select`);
    if (select?.labels.includes('rollgen:manual')) this.merge(select.number);
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

  /**
   * App `echo` adopted, a new revision, steps 1..k merged by a person, the next step's PR open.
   * Without `prepare`, the worlds reached on the way are kept for the test file (reached, below): a
   * later call with the same config starts from a copy of the furthest one, instead of replaying the
   * same `rollgen pr` runs from the start.
   */
  static async echoAtStep(config: string, k: number, prepare?: (repo: string) => void): Promise<FlowWorld> {
    const kept = prepare ? undefined : furthestReached(config, k);
    const w = kept ? kept.world.copy() : await FlowWorld.echoRevised(config, prepare);
    if (!kept && !prepare) keepReached(config, 0, w);
    for (let s = (kept?.step ?? 0) + 1; s <= k; s++) {
      await w.pr();
      w.merge(w.openPr(`rollgen/echo/step-${s}`).number);
      if (!prepare) keepReached(config, s, w);
    }
    await w.pr();
    return w;
  }

  /** App `echo` adopted (selector switched) and its image bumped on main: the rollout's steps are next. */
  private static async echoRevised(config: string, prepare?: (repo: string) => void): Promise<FlowWorld> {
    const w = new FlowWorld(['echo'], config);
    if (prepare) {
      prepare(w.repo);
      commitAll(w.repo, 'prepare', w.now);
    }
    await w.pr();
    w.merge(w.openPr('rollgen/echo/adopt').number);
    await w.pr();
    w.confirmSelect('echo');
    await w.pr(); // merges the selector switch
    bumpImage(w.repo, 'echo', '2.54', w.now);
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

/** Copies of the worlds echoAtStep reached in this test file: config -> steps merged -> world. */
const reached = new Map<string, Map<number, FlowWorld>>();
afterAll(() => {
  for (const worlds of reached.values())
    for (const w of worlds.values()) fs.rmSync(w.repo, { recursive: true, force: true });
  reached.clear();
});

function keepReached(config: string, step: number, w: FlowWorld): void {
  const worlds = reached.get(config) ?? new Map<number, FlowWorld>();
  reached.set(config, worlds);
  if (!worlds.has(step)) worlds.set(step, w.copy());
}

function furthestReached(config: string, k: number): { step: number; world: FlowWorld } | undefined {
  const steps = [...(reached.get(config)?.keys() ?? [])].filter((s) => s <= k);
  if (steps.length === 0) return undefined;
  const step = Math.max(...steps);
  return { step, world: reached.get(config)!.get(step)! };
}
