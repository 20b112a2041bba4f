import type { ScmError } from '../errors';

/**
 * rollgen's seam to a code host. The PR flow (src/flow) talks only to this interface; the Octokit
 * client (src/scm/github) and the in-memory fake used by the flow tests implement it. Every method
 * is one logical operation; implementations convert their transport errors into ScmError
 * (src/errors.ts) saying what was being done, and never include the token.
 */
export interface ScmClient {
  /** Commit sha the branch points at; undefined when the branch does not exist. */
  branchHead(branch: string): Promise<string | undefined>;
  /**
   * rollgen's pull requests: those whose head branch starts with `prefix`, newest first. Paginates
   * at 100 per page. With `closedSince`, closed PRs are read most recently updated first and only
   * back to that moment, so a scan costs ceil(open PRs / 100) plus the pages of recent closures,
   * not the repository's whole PR history.
   */
  listPulls(req: {
    readonly prefix: string;
    readonly state: 'open' | 'closed' | 'all';
    readonly closedSince?: Date;
  }): Promise<readonly PullRequest[]>;
  /**
   * One commit on top of `parent` holding every change, then points `branch` at it, creating the
   * branch or force-moving it (a step branch is always reset to the base plus exactly one commit).
   * Returns the new commit's sha.
   */
  commitToBranch(req: CommitRequest): Promise<string>;
  /**
   * commitToBranch for many branches as one operation: GitHub's client builds the commits in the
   * local checkout and pushes them all at once (no REST request), each branch leased to its
   * `expectedHead`; where a push is refused it writes them through the REST API instead. One
   * result per request, in order: the new head, or why that branch was not written (outcome
   * `head-moved`: it no longer held `expectedHead`; `push-refused`: nothing was written, the
   * client writes by REST from now on, so the caller may plan again with the new cost and retry).
   */
  writeBranches(reqs: readonly CommitRequest[]): Promise<readonly BranchWrite[]>;
  /** Requests sent so far and what the host said of its rate limit; what the next branch write costs. */
  usage(): RequestUsage;
  createPull(req: {
    readonly branch: string;
    readonly base: string;
    readonly title: string;
    readonly body: string;
    readonly labels: readonly string[];
  }): Promise<PullRequest>;
  updatePull(
    number: number,
    req: {
      readonly title?: string;
      readonly body?: string;
      readonly labels?: readonly string[];
      readonly state?: 'open' | 'closed';
    },
  ): Promise<PullRequest>;
  /** Merges when the head is still `sha` (the host refuses otherwise, with outcome head-moved, so a racing push is never merged unseen). */
  mergePull(
    number: number,
    req: { readonly sha: string; readonly method: MergeMethod; readonly title?: string },
  ): Promise<void>;
  /** Combined result of the commit's check runs and statuses; 'success' when there are none. */
  checks(sha: string): Promise<CheckState>;
  comment(number: number, body: string): Promise<void>;
  /** The commit's statuses, the latest per context (one request; the first 100 contexts). */
  commitStatuses(sha: string): Promise<readonly CommitStatus[]>;
  /** The commit's check runs, only those called `name` when given (one request per 100 runs). */
  checkRuns(sha: string, name?: string): Promise<readonly CheckRun[]>;
  /** Creates a check run on `req.sha`, or updates run `req.id` (one request). */
  putCheckRun(req: CheckRunRequest): Promise<CheckRun>;
}

export type MergeMethod = 'merge' | 'squash' | 'rebase';
export type CheckState = 'success' | 'pending' | 'failure';

/** A commit status as another system (Argo CD, Flux, CI) posted it. */
export interface CommitStatus {
  readonly context: string;
  readonly state: 'success' | 'pending' | 'failure' | 'error';
  readonly description?: string;
  /** ISO 8601: when this state was posted. */
  readonly updatedAt: string;
}

export type CheckConclusion =
  | 'success'
  | 'failure'
  | 'neutral'
  | 'cancelled'
  | 'skipped'
  | 'timed_out'
  | 'action_required'
  | 'stale'
  | 'startup_failure';

export interface CheckRunOutput {
  readonly title: string;
  /** Markdown shown on the check run's page (GitHub keeps up to 65535 characters). */
  readonly summary: string;
  readonly text?: string;
}

export interface CheckRun {
  readonly id: number;
  readonly name: string;
  readonly status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  readonly conclusion: CheckConclusion | null;
  readonly startedAt?: string;
  readonly completedAt?: string;
  readonly output?: Partial<CheckRunOutput>;
}

export interface CheckRunRequest {
  readonly sha: string;
  readonly name: string;
  /** Set to update that run instead of creating one. */
  readonly id?: number;
  readonly status: 'in_progress' | 'completed';
  readonly conclusion?: Exclude<CheckConclusion, 'startup_failure'>;
  readonly output: CheckRunOutput;
}

export interface FileChange {
  /** Repository-relative, forward slashes. */
  readonly path: string;
  /** New UTF-8 content; null deletes the file. */
  readonly content: string | null;
}

export interface CommitRequest {
  readonly branch: string;
  readonly parent: string;
  /** Tree of `parent` when the caller already knows it (e.g. from the local checkout); saves a request. */
  readonly parentTree?: string;
  /** The branch `parent` was read from (the PR's base): for a forge API that starts a branch from a branch name only (Gitea). */
  readonly base?: string;
  readonly message: string;
  readonly changes: readonly FileChange[];
  /**
   * The head the caller last saw the branch at (null: no branch). A write only moves a branch that
   * still holds it, so a push made since (a person's, a concurrent run's) is never overwritten
   * unseen. Unset: moved whatever it holds. The REST fallback cannot lease: it moves it anyway.
   */
  readonly expectedHead?: string | null;
}

export type BranchWrite =
  | { readonly branch: string; readonly sha: string }
  | { readonly branch: string; readonly error: ScmError };

export interface RequestUsage {
  /** Requests sent so far (every attempt, retries included). */
  readonly requests: number;
  /** Requests one more branch write costs: 0 while branches go by git push, 3 or 4 by REST. */
  readonly requestsPerBranch: number;
  /** From the host's last answer: requests left in this window, its size, when it resets, which limit. */
  readonly remaining?: number;
  readonly limit?: number;
  readonly reset?: Date;
  readonly resource?: string;
  /** The forge's name for messages (absent: GitHub). */
  readonly host?: string;
}

export interface PullRequest {
  readonly number: number;
  readonly url: string;
  /** Head branch name, without refs/heads/. */
  readonly branch: string;
  readonly base: string;
  readonly state: 'open' | 'closed';
  readonly merged: boolean;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
  readonly headSha: string;
  /** The host's own short reference for messages (GitHub: `#12`); the flow never formats one itself. */
  readonly ref: string;
  /** ISO 8601, when merged / closed. */
  readonly mergedAt?: string;
  readonly closedAt?: string;
}

/** Where and as whom to reach the code host (GitHub today); read from GITHUB_* variables or flags at the edge. */
export interface ScmConnection {
  readonly token: string;
  /** owner/name */
  readonly repository: string;
  /** https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server. */
  readonly apiUrl: string;
  /** The web and git address (https://github.com, GITHUB_SERVER_URL); derived from apiUrl when unset. */
  readonly serverUrl?: string;
  /** The local clone of the base branch: with it, branches are committed locally and pushed by git. */
  readonly localRepo?: string;
  /** Which code host's API this is (absent: GitHub). Chosen in src/flow/forge.ts. */
  readonly forge?: 'github' | 'gitlab' | 'gitea';
}
