/**
 * What the loopback Gitea keeps beside its real bare repository: pull requests (issues numbered
 * with them), labels by id, comments, commit statuses, and a clock tests move (merge commits are
 * dated by it, so history-based timed gates see the time a test chose).
 */
export interface Pull {
  readonly number: number;
  readonly head: string;
  readonly base: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: number[];
  /** The head when it was last read: kept after the branch is gone. */
  headSha: string;
  readonly createdAt: string;
  updatedAt: string;
  mergedAt: string | null;
  mergedBy: string | null;
  closedAt: string | null;
  mergeCommitSha: string | null;
}

export interface Label {
  readonly id: number;
  readonly name: string;
  readonly color: string;
  readonly description: string;
}

export interface Comment {
  readonly id: number;
  readonly issue: number;
  body: string;
  readonly createdAt: string;
  updatedAt: string;
}

export interface Status {
  readonly id: number;
  readonly sha: string;
  readonly context: string;
  readonly state: string;
  readonly description: string;
  readonly targetUrl: string;
  readonly createdAt: string;
}

/** Gitea's combination of statuses: the worst wins (error, failure, warning, pending, success). */
const WORST_FIRST = ['error', 'failure', 'warning', 'pending', 'success'];

export class GiteaState {
  readonly pulls = new Map<number, Pull>();
  readonly labels: Label[] = [];
  readonly comments = new Map<number, Comment>();
  readonly statuses: Status[] = [];
  /** The time Gitea says it is: now, unless a test sets its own clock. */
  time: () => Date = () => new Date();
  /** Set: the base branch's protection refuses merges, in Gitea's words (e.g. "Does not have enough approvals"). */
  protection: string | undefined;
  private ids = 0;

  nextId(): number {
    return ++this.ids;
  }

  now(): string {
    return this.time()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  }

  /** The latest status per context on `sha`, newest first. */
  latestStatuses(sha: string): Status[] {
    const seen = new Set<string>();
    return this.statuses
      .filter((s) => s.sha === sha)
      .reverse()
      .filter((s) => !seen.has(s.context) && seen.add(s.context));
  }

  combined(sha: string): string {
    const states = this.latestStatuses(sha).map((s) => s.state);
    return states.length === 0 ? '' : WORST_FIRST.find((s) => states.includes(s))!;
  }
}
