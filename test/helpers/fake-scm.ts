import { createHash } from 'crypto';
import { ScmError } from '../../src/errors';
import {
  BranchWrite,
  CheckRun,
  CheckRunRequest,
  CheckState,
  CommitRequest,
  CommitStatus,
  FileChange,
  MergeMethod,
  PullRequest,
  RequestUsage,
  ScmClient,
} from '../../src/scm/types';

const retryConflict =
  (again: () => Promise<string>) =>
  (e: unknown): Promise<string> => {
    if (e instanceof ScmError && e.outcome === 'already-exists') return again();
    throw e;
  };

export interface Call {
  readonly op: keyof ScmClient;
  readonly args: readonly unknown[];
}

interface FakeCommit {
  readonly parent: string;
  readonly message: string;
  readonly changes: readonly FileChange[];
}

type Pull = { -readonly [K in keyof PullRequest]: PullRequest[K] };

const WRITES: readonly (keyof ScmClient)[] = [
  'commitToBranch',
  'createPull',
  'updatePull',
  'mergePull',
  'comment',
  'putCheckRun',
];

/**
 * An in-memory GitHub at the ScmClient seam: branches, commits (the files each one changes), PRs
 * (open, closed, merged) with labels, check states and comments. Every call is recorded; every
 * method yields to the event loop first, and branch creation yields again between "does the ref
 * exist" and "create it", so two runs started together interleave as two Action jobs would:
 * the loser hears "already exists". Refusals carry typed outcomes and no HTTP status, as a host
 * other than GitHub would: the flow must branch on the outcome, never on GitHub's status codes.
 */
export class FakeScm implements ScmClient {
  readonly calls: Call[] = [];
  readonly branches = new Map<string, string>();
  readonly commits = new Map<string, FakeCommit>();
  readonly pulls: Pull[] = [];
  readonly comments: { readonly number: number; readonly body: string }[] = [];
  readonly checkStates = new Map<string, CheckState>();
  readonly merges: { readonly number: number; readonly method: MergeMethod }[] = [];
  /** Commit statuses per sha, latest per context, as Argo CD or Flux post them. */
  readonly statuses = new Map<string, CommitStatus[]>();
  readonly runs = new Map<string, CheckRun[]>();
  private seq = 0;
  /** How this host writes a PR reference; GitHub's `#N` unless a test plays another host. */
  refOf = (n: number): string => `#${n}`;

  constructor(
    private readonly clock: () => Date,
    readonly repository = 'acme/deploy',
  ) {}

  /** An independent copy of this host's state, on `clock`: what a test would have after the same calls. */
  copy(clock: () => Date): FakeScm {
    const fake = new FakeScm(clock, this.repository);
    const state = structuredClone({
      calls: this.calls,
      branches: this.branches,
      commits: this.commits,
      pulls: this.pulls,
      comments: this.comments,
      checkStates: this.checkStates,
      merges: this.merges,
      statuses: this.statuses,
      runs: this.runs,
    });
    Object.assign(fake, state, { seq: this.seq, refOf: this.refOf });
    return fake;
  }

  writes(): Call[] {
    return this.calls.filter((c) => WRITES.includes(c.op));
  }

  /** HTTP requests the Octokit client spends on the recorded calls (see httpCost). */
  http(calls: readonly Call[] = this.calls): number {
    return calls.reduce((n, c) => n + httpCost(c, this.pulls.length), 0);
  }

  async branchHead(branch: string): Promise<string | undefined> {
    await this.enter('branchHead', branch);
    return this.branches.get(branch);
  }

  async listPulls(req: {
    prefix: string;
    state: 'open' | 'closed' | 'all';
    closedSince?: Date;
  }): Promise<readonly PullRequest[]> {
    await this.enter('listPulls', req);
    const recent = (p: PullRequest) =>
      p.state === 'open' || !req.closedSince || new Date(p.closedAt ?? p.mergedAt ?? 0) >= req.closedSince;
    return this.pulls
      .filter((p) => p.branch.startsWith(req.prefix) && (req.state === 'all' || p.state === req.state) && recent(p))
      .sort((a, b) => b.number - a.number)
      .map((p) => ({ ...p, labels: [...p.labels] }));
  }

  async commitToBranch(req: CommitRequest): Promise<string> {
    await this.enter('commitToBranch', req);
    const sha = createHash('sha1')
      .update(`${++this.seq}:${req.branch}:${req.parent}`)
      .digest('hex');
    this.commits.set(sha, { parent: req.parent, message: req.message, changes: req.changes.map((c) => ({ ...c })) });
    if (!this.branches.has(req.branch)) {
      await tick();
      if (this.branches.has(req.branch))
        throw new ScmError(`create branch ${req.branch}`, undefined, 'Reference already exists', {
          outcome: 'already-exists',
        });
    }
    this.branches.set(req.branch, sha);
    for (const p of this.pulls) if (p.state === 'open' && p.branch === req.branch) p.headSha = sha;
    return sha;
  }

  /** As the REST fallback writes them: one commitToBranch each, a branch a concurrent run created force-moved on a second try. */
  async writeBranches(reqs: readonly CommitRequest[]): Promise<readonly BranchWrite[]> {
    const out: BranchWrite[] = [];
    for (const req of reqs) {
      try {
        out.push({
          branch: req.branch,
          sha: await this.commitToBranch(req).catch(retryConflict(() => this.commitToBranch(req))),
        });
      } catch (e) {
        if (!(e instanceof ScmError)) throw e;
        out.push({ branch: req.branch, error: e });
      }
    }
    return out;
  }

  /** Branches cost what the REST API spends on them; requests as httpCost counts the calls. */
  usage(): RequestUsage {
    return { requests: this.http(), requestsPerBranch: 3 };
  }

  async createPull(req: {
    branch: string;
    base: string;
    title: string;
    body: string;
    labels: readonly string[];
  }): Promise<PullRequest> {
    await this.enter('createPull', req);
    const head = this.branches.get(req.branch);
    if (!head) throw new ScmError(`open PR from ${req.branch}`, 422, 'head branch does not exist');
    if (this.pulls.some((p) => p.state === 'open' && p.branch === req.branch))
      throw new ScmError(
        `open PR from ${req.branch}`,
        undefined,
        `A pull request already exists for ${this.repository.split('/')[0]}:${req.branch}.`,
        { outcome: 'already-exists' },
      );
    const number = this.pulls.length + 1;
    const pr: Pull = {
      number,
      url: `https://github.com/${this.repository}/pull/${number}`,
      branch: req.branch,
      base: req.base,
      state: 'open',
      merged: false,
      title: req.title,
      body: req.body,
      labels: [...req.labels],
      headSha: head,
      ref: this.refOf(number),
    };
    this.pulls.push(pr);
    return { ...pr };
  }

  async updatePull(
    number: number,
    req: { title?: string; body?: string; labels?: readonly string[]; state?: 'open' | 'closed' },
  ): Promise<PullRequest> {
    await this.enter('updatePull', number, req);
    const pr = this.pull(number);
    if (
      req.state === 'open' &&
      pr.state === 'closed' &&
      this.pulls.some((p) => p.state === 'open' && p.branch === pr.branch)
    )
      throw new ScmError(`reopen #${number}`, 422, 'a PR is already open for this branch');
    Object.assign(pr, {
      ...(req.title !== undefined ? { title: req.title } : {}),
      ...(req.body !== undefined ? { body: req.body } : {}),
      ...(req.labels ? { labels: [...req.labels] } : {}),
    });
    if (req.state === 'closed' && pr.state === 'open')
      Object.assign(pr, { state: 'closed', closedAt: this.clock().toISOString() });
    if (req.state === 'open') Object.assign(pr, { state: 'open', closedAt: undefined });
    return { ...pr };
  }

  async mergePull(number: number, req: { sha: string; method: MergeMethod }): Promise<void> {
    await this.enter('mergePull', number, req);
    const pr = this.pull(number);
    if (pr.state !== 'open')
      throw new ScmError(`merge #${number}`, undefined, 'Pull Request is not mergeable', { outcome: 'not-mergeable' });
    if (pr.headSha !== req.sha)
      throw new ScmError(`merge #${number}`, undefined, 'Head branch was modified. Review and try the merge again.', {
        outcome: 'head-moved',
      });
    this.mergeNow(pr, req.method);
  }

  async checks(sha: string): Promise<CheckState> {
    await this.enter('checks', sha);
    return this.checkStates.get(sha) ?? 'success';
  }

  async comment(number: number, body: string): Promise<void> {
    await this.enter('comment', number, body);
    this.pull(number);
    this.comments.push({ number, body });
  }

  async commitStatuses(sha: string): Promise<readonly CommitStatus[]> {
    await this.enter('commitStatuses', sha);
    return [...(this.statuses.get(sha) ?? [])];
  }

  async checkRuns(sha: string, name?: string): Promise<readonly CheckRun[]> {
    await this.enter('checkRuns', sha, name);
    return (this.runs.get(sha) ?? []).filter((r) => name === undefined || r.name === name).map((r) => ({ ...r }));
  }

  async putCheckRun(req: CheckRunRequest): Promise<CheckRun> {
    await this.enter('putCheckRun', req);
    const list = this.runs.get(req.sha) ?? [];
    const at = this.clock().toISOString();
    const run: CheckRun = {
      id: req.id ?? ++this.seq,
      name: req.name,
      status: req.status,
      conclusion: req.conclusion ?? null,
      startedAt: at,
      ...(req.status === 'completed' ? { completedAt: at } : {}),
      output: { ...req.output },
    };
    const i = list.findIndex((r) => r.id === req.id);
    if (req.id !== undefined && i < 0) throw new ScmError(`update check run ${req.id}`, 404, 'Not Found');
    this.runs.set(req.sha, i >= 0 ? list.map((r, j) => (j === i ? run : r)) : [...list, run]);
    return { ...run };
  }

  // What other systems post: Argo CD Notifications, Flux's notification-controller, CI.
  postStatus(sha: string, context: string, state: CommitStatus['state'], description?: string): void {
    const rest = (this.statuses.get(sha) ?? []).filter((s) => s.context !== context);
    const at = this.clock().toISOString();
    this.statuses.set(sha, [...rest, { context, state, updatedAt: at, ...(description ? { description } : {}) }]);
  }

  postCheckRun(sha: string, name: string, conclusion: CheckRun['conclusion']): void {
    const at = this.clock().toISOString();
    const run: CheckRun = {
      id: ++this.seq,
      name,
      status: conclusion ? 'completed' : 'in_progress',
      conclusion,
      startedAt: at,
      ...(conclusion ? { completedAt: at } : {}),
    };
    this.runs.set(sha, [...(this.runs.get(sha) ?? []), run]);
  }

  // What people do in the GitHub UI; not calls rollgen makes, so not recorded.
  personMerge(number: number): void {
    this.mergeNow(this.pull(number), 'merge');
  }

  personClose(number: number): void {
    Object.assign(this.pull(number), { state: 'closed', closedAt: this.clock().toISOString() });
  }

  /** The files of a PR's head commit. */
  changesOf(number: number): readonly FileChange[] {
    return this.commits.get(this.pull(number).headSha)!.changes;
  }

  open(): Pull[] {
    return this.pulls.filter((p) => p.state === 'open');
  }

  pull(number: number): Pull {
    const pr = this.pulls.find((p) => p.number === number);
    if (!pr) throw new ScmError(`find #${number}`, 404, 'Not Found');
    return pr;
  }

  private mergeNow(pr: Pull, method: MergeMethod): void {
    const at = this.clock().toISOString();
    Object.assign(pr, { state: 'closed', merged: true, mergedAt: at, closedAt: at });
    this.merges.push({ number: pr.number, method });
  }

  private async enter(op: keyof ScmClient, ...args: unknown[]): Promise<void> {
    this.calls.push({ op, args });
    await tick();
  }
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * HTTP requests per seam call in the Octokit client (branch gh-octokit): branchHead 1; listPulls 1
 * per 100 PRs; commitToBranch tree + commit + ref (create or force-update), +1 to read the parent's
 * tree when the caller does not pass it; createPull 1, +1 to add labels; updatePull 1 for
 * title/body/state, +1 to set labels; mergePull 1; checks 2 (check runs and commit statuses); comment 1.
 */
export function httpCost(c: Call, totalPulls: number): number {
  const [a, b] = c.args as [Record<string, unknown>, Record<string, unknown>];
  switch (c.op) {
    case 'listPulls':
      return Math.max(1, Math.ceil(totalPulls / 100));
    case 'commitToBranch':
      return a.parentTree ? 3 : 4;
    case 'createPull':
      return 1 + ((a.labels as unknown[]).length > 0 ? 1 : 0);
    case 'updatePull':
      return (b.title !== undefined || b.body !== undefined || b.state !== undefined ? 1 : 0) + (b.labels ? 1 : 0);
    case 'checks':
      return 2;
    case 'commitStatuses':
    case 'checkRuns':
    case 'putCheckRun':
      return 1;
    default:
      return 1;
  }
}
