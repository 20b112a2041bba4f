import type { CheckState, CommitStatus } from '../types';
import type { GiteaRepo } from './repo';

/** Gitea's CommitStatus: its state is the `status` field (swagger: definitions.CommitStatus). */
export interface ApiStatus {
  readonly id: number;
  readonly status: string;
  readonly context: string;
  readonly description?: string | null;
  readonly target_url?: string | null;
  readonly updated_at: string;
  readonly created_at?: string;
}

/** Gitea's CombinedStatus: the latest status per context and their combination. */
interface ApiCombined {
  readonly state: string;
  readonly total_count: number;
  readonly statuses: readonly ApiStatus[] | null;
}

/**
 * One request: GET /commits/{sha}/status, the latest status per context (the first 50). Gitea's
 * `warning` is no success and no failure: rollgen keeps waiting on it, like `pending`.
 */
export async function fetchStatuses(gh: GiteaRepo, sha: string): Promise<ApiStatus[]> {
  const { data } = await gh.http.request<ApiCombined>('GET', `${gh.path}/commits/${sha}/status`, {
    query: { limit: 50 },
  });
  return [...(data.statuses ?? [])];
}

export function toCommitStatus(s: ApiStatus): CommitStatus {
  return {
    context: s.context,
    state: stateOf(s.status),
    updatedAt: s.updated_at,
    ...(s.description ? { description: s.description } : {}),
  };
}

function stateOf(status: string): CommitStatus['state'] {
  if (status === 'success' || status === 'failure' || status === 'error') return status;
  return 'pending'; // pending, warning, and any state a newer Gitea adds
}

/** One request: the combined state of the commit's statuses; none at all counts as success (no signal). */
export async function fetchChecks(gh: GiteaRepo, sha: string): Promise<CheckState> {
  const { data } = await gh.http.request<ApiCombined>('GET', `${gh.path}/commits/${sha}/status`, {
    query: { limit: 1 },
  });
  if (data.total_count === 0 || data.state === '') return 'success';
  if (data.state === 'success') return 'success';
  return data.state === 'pending' || data.state === 'warning' ? 'pending' : 'failure';
}

/** One request: POST /statuses/{sha}. */
export async function postStatus(
  gh: GiteaRepo,
  sha: string,
  status: { context: string; state: string; description: string; target_url?: string },
): Promise<void> {
  await gh.http.request('POST', `${gh.path}/statuses/${sha}`, { body: status });
}
