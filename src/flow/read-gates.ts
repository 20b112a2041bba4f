import type { HealthPolicy } from '../io/config';
import type { GitRunner } from '../io/git';
import type { ScmClient } from '../scm/types';
import { readArgoApplication } from '../io/argocd';
import { CommitSignals, Health, combineHealth, judgeArgo, judgeHealth } from './health';

/** At most this many commits of the base are read for one app's health: its head, ..., the commit that landed the step. */
export const MAX_HEALTH_COMMITS = 4;

/**
 * The newest first-parent commits of the base, as many as a health read may need: read by one
 * `git rev-list` on first call, and only then (a run whose apps have no gate reads none).
 */
export function recentCommits(git: GitRunner, root: string): () => readonly string[] {
  let newest: string[] | undefined;
  return () =>
    (newest ??= git(['rev-list', '--first-parent', `--max-count=${MAX_HEALTH_COMMITS}`, 'HEAD'], root)
      .split('\n')
      .filter(Boolean));
}

/**
 * The commits of the base that carry the app's current step, newest first: first-parent commits
 * from HEAD (`recent`, from recentCommits) back to `landing`, the last one that changed the output
 * (AppHistory.landingSha; the step's output is unchanged since). Bounded: the newest
 * MAX_HEALTH_COMMITS - 1 and the landing commit. None when nothing landed.
 */
export function carryingCommits(recent: readonly string[], landing: string | undefined): string[] {
  if (!landing) return [];
  const upTo = recent.indexOf(landing);
  return upTo >= 0 ? recent.slice(0, upTo + 1) : [...recent.slice(0, MAX_HEALTH_COMMITS - 1), landing];
}

/**
 * Reads statuses (when the policy names any) and check runs (likewise) commit by commit, newest
 * first, and stops as soon as the judgement no longer waits: a healthy or failed step read on the
 * head costs one or two requests.
 */
export async function readHealth(
  scm: ScmClient,
  policy: HealthPolicy,
  shas: readonly string[],
  edge: { readonly env: Readonly<Record<string, string | undefined>>; readonly now: Date },
): Promise<Health> {
  const parts: Health[] = [];
  if (policy.statuses.length + policy.checkRuns.length > 0) parts.push(await readCommitHealth(scm, policy, shas));
  const argo = policy.argocd;
  if (argo) {
    const token = edge.env[argo.tokenEnv];
    const reading = token
      ? await readArgoApplication(argo.server, argo.application, token)
      : { error: `set ${argo.tokenEnv} to an Argo CD API token` };
    parts.push(judgeArgo(reading, shas, edge.now));
  }
  return combineHealth(parts);
}

async function readCommitHealth(scm: ScmClient, policy: HealthPolicy, shas: readonly string[]): Promise<Health> {
  const read: CommitSignals[] = [];
  let health = judgeHealth(policy, read);
  for (const sha of shas) {
    const statuses = policy.statuses.length > 0 ? await scm.commitStatuses(sha) : [];
    const checkRuns = policy.checkRuns.length > 0 ? await scm.checkRuns(sha) : [];
    read.push({ sha, statuses, checkRuns });
    health = judgeHealth(policy, read);
    if (health.state !== 'waiting') break;
  }
  return health;
}
