/**
 * The in-memory repository behind the fake GitHub: git objects (flat trees: path → content),
 * branches, pull requests with labels and comments, commit statuses and check runs. Shas are
 * content hashes, timestamps come from a counter: two identical runs produce identical data.
 */
import { createHash } from 'node:crypto';

export interface Commit {
  readonly sha: string;
  readonly tree: string;
  readonly parents: readonly string[];
  readonly message: string;
}

export interface Pull {
  readonly number: number;
  readonly head: string;
  readonly base: string;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  labels: string[];
  /** Head sha when the branch is gone (after merge or deletion). */
  lastHeadSha: string;
  readonly createdAt: string;
  updatedAt: string;
  mergedAt: string | null;
  closedAt: string | null;
  mergeCommitSha: string | null;
  comments: string[];
  /** Test switch: GitHub answers 405 when a PR cannot be merged (conflicts, protections). */
  mergeable: boolean;
}

export interface CheckRun {
  readonly id: number;
  readonly name: string;
  readonly status: 'queued' | 'in_progress' | 'completed';
  readonly conclusion:
    | 'success'
    | 'failure'
    | 'neutral'
    | 'cancelled'
    | 'skipped'
    | 'timed_out'
    | 'action_required'
    | null;
  readonly output?: { readonly title: string | null; readonly summary: string | null; readonly text: string | null };
}

export interface CommitStatus {
  readonly id: number;
  readonly context: string;
  readonly state: 'error' | 'failure' | 'pending' | 'success';
  readonly updatedAt?: string;
}

export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

export class RepoState {
  readonly trees = new Map<string, ReadonlyMap<string, string>>();
  readonly commits = new Map<string, Commit>();
  readonly branches = new Map<string, string>();
  readonly pulls = new Map<number, Pull>();
  readonly checkRuns = new Map<string, CheckRun[]>();
  readonly statuses = new Map<string, CommitStatus[]>();
  private clock = 0;
  private ids = 0;

  constructor(
    readonly owner: string,
    readonly name: string,
    readonly defaultBranch = 'main',
  ) {
    const root = this.addTree(new Map([['README.md', '# demo\n']]));
    this.branches.set(defaultBranch, this.addCommit(root, [], 'initial commit').sha);
  }

  /** A deterministic ISO time: each call is one second after the previous one. */
  now(): string {
    return new Date(Date.UTC(2026, 0, 1) + 1000 * this.clock++).toISOString();
  }

  nextId(): number {
    return ++this.ids;
  }

  addTree(files: ReadonlyMap<string, string>): string {
    const sha = sha1(JSON.stringify([...files].sort(([a], [b]) => a.localeCompare(b))));
    this.trees.set(sha, files);
    return sha;
  }

  addCommit(tree: string, parents: readonly string[], message: string): Commit {
    const commit = { sha: sha1(`${tree}\n${parents.join(',')}\n${message}`), tree, parents, message };
    this.commits.set(commit.sha, commit);
    return commit;
  }

  /** Files at the tip of a branch: what tests compare after a commit. */
  filesAt(branch: string): ReadonlyMap<string, string> {
    const head = this.branches.get(branch);
    const commit = head ? this.commits.get(head) : undefined;
    return (commit && this.trees.get(commit.tree)) ?? new Map();
  }

  headOf(pull: Pull): string {
    return (pull.state === 'open' && this.branches.get(pull.head)) || pull.lastHeadSha;
  }

  openPull(head: string, base: string, title: string, body: string | null): Pull {
    const number = this.pulls.size + 1;
    const at = this.now();
    const pull: Pull = {
      number,
      head,
      base,
      title,
      body,
      state: 'open',
      labels: [],
      lastHeadSha: this.branches.get(head) ?? '',
      createdAt: at,
      updatedAt: at,
      mergedAt: null,
      closedAt: null,
      mergeCommitSha: null,
      comments: [],
      mergeable: true,
    };
    this.pulls.set(number, pull);
    return pull;
  }

  addCheckRun(sha: string, name: string, status: CheckRun['status'], conclusion: CheckRun['conclusion'] = null): void {
    this.checkRuns.set(sha, [...(this.checkRuns.get(sha) ?? []), { id: this.nextId(), name, status, conclusion }]);
  }

  addStatus(sha: string, context: string, state: CommitStatus['state']): void {
    const at = this.now();
    this.statuses.set(sha, [...(this.statuses.get(sha) ?? []), { id: this.nextId(), context, state, updatedAt: at }]);
  }

  /** Creates (no id) or replaces run `id` on `sha`, as POST/PATCH check-runs do; undefined when `id` is unknown. */
  putCheckRun(sha: string, run: Omit<CheckRun, 'id'>, id?: number): CheckRun | undefined {
    const list = this.checkRuns.get(sha) ?? [];
    if (id !== undefined && !list.some((r) => r.id === id)) return undefined;
    const next = { ...run, id: id ?? this.nextId() };
    this.checkRuns.set(sha, id === undefined ? [...list, next] : list.map((r) => (r.id === id ? next : r)));
    return next;
  }

  /** The commit a check run lives on. */
  shaOfCheckRun(id: number): string | undefined {
    return [...this.checkRuns].find(([, runs]) => runs.some((r) => r.id === id))?.[0];
  }
}
