import { ScmError } from '../errors';
import { MergeMethod, PullRequest, ScmClient } from '../scm/types';

/**
 * Merges at the head whose checks were read; false when the host says the head moved since (a
 * race, not a failure, so the other apps still run); the host's words when it will merge it by
 * itself once its pipeline succeeds (auto-merge set): the app holds, the next run sees it merged.
 */
export async function mergeUnlessMoved(
  scm: ScmClient,
  pr: PullRequest,
  o: { readonly mergeMethod: MergeMethod },
): Promise<true | false | string> {
  try {
    await scm.mergePull(pr.number, { sha: pr.headSha, method: o.mergeMethod });
    return true;
  } catch (e) {
    if (e instanceof ScmError && e.outcome === 'head-moved') return false;
    const scheduled = mergeScheduled(e);
    if (scheduled !== undefined) return scheduled;
    throw e;
  }
}

/**
 * Merges a command's PR (`--merge`); the forge's words when it will merge it itself once its
 * pipeline succeeds (GitLab's auto-merge): the command has done its part, the next run sees it merged.
 */
export async function mergeOrSchedule(
  scm: ScmClient,
  pr: PullRequest,
  method: MergeMethod,
): Promise<string | undefined> {
  try {
    await scm.mergePull(pr.number, { sha: pr.headSha, method });
    return undefined;
  } catch (e) {
    const scheduled = mergeScheduled(e);
    if (scheduled !== undefined) return scheduled;
    throw e;
  }
}

/** The host's words when it refused to merge now but will by itself once the pipeline succeeds. */
function mergeScheduled(e: unknown): string | undefined {
  return e instanceof ScmError && e.outcome === 'merge-scheduled' ? e.message.replace(/^merge \S+: /, '') : undefined;
}
