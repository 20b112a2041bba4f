import type { CheckState } from '../types';
import type { GitHubRepo } from './repo';

/** What the combination needs from one check run (GitHub Actions and other Apps). */
export interface CheckRunResult {
  readonly status: string;
  readonly conclusion: string | null;
}

/** What it needs from the commit statuses API (older CI integrations). */
export interface CombinedStatus {
  readonly state: string;
  readonly total_count: number;
}

// Conclusions that let a gate pass; everything else that completed (failure, cancelled,
// timed_out, action_required, stale, startup_failure) holds the merge.
const PASSING = new Set(['success', 'neutral', 'skipped']);

/** Any failure wins, then anything still running; no checks at all counts as success. */
export function combineChecks(runs: readonly CheckRunResult[], status: CombinedStatus): CheckState {
  const runStates = runs.map(
    (r): CheckState => (r.status !== 'completed' ? 'pending' : PASSING.has(r.conclusion ?? '') ? 'success' : 'failure'),
  );
  // GitHub reports 'pending' for a commit with no statuses at all: that is no signal, not a wait.
  const statusState: CheckState =
    status.total_count === 0
      ? 'success'
      : status.state === 'success'
        ? 'success'
        : status.state === 'pending'
          ? 'pending'
          : 'failure';
  const all = [...runStates, statusState];
  if (all.includes('failure')) return 'failure';
  return all.includes('pending') ? 'pending' : 'success';
}

/** Two requests, in parallel: GET commits/{sha}/check-runs (per_page 100) + GET commits/{sha}/status. */
export async function fetchChecks(gh: GitHubRepo, sha: string): Promise<CheckState> {
  const { owner, repo } = gh;
  const [runs, status] = await Promise.all([
    gh.octokit.paginate(gh.octokit.rest.checks.listForRef, { owner, repo, ref: sha, per_page: 100 }),
    gh.octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref: sha, per_page: 100 }),
  ]);
  return combineChecks(runs, status.data);
}
