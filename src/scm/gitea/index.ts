import { ScmError } from '../../errors';
import { processStderr } from '../../io/stdout';
import { GitBranchWriter, branchWrites } from '../github/branches';
import { RequestMeter } from '../github/meter';
import type { ScmClient, ScmConnection } from '../types';
import { createComment } from './comments';
import { writeByContents } from './contents';
import { GiteaScope, toScmError } from './errors';
import { GiteaHttp, GiteaHttpError, GiteaScmOptions } from './http';
import { LabelIds } from './labels';
import { createPullRequest, listPullsByPrefix, mergePullRequest, toPullRequest, updatePullRequest } from './pulls';
import type { ApiPull, GiteaRepo } from './repo';
import { readRecords, writeRecord } from './records';
import { fetchChecks, fetchStatuses, toCommitStatus } from './statuses';

export type { GiteaScmOptions } from './http';

const REFUSAL =
  "step branches go through Gitea's contents API for the rest of this run (one request a new branch, two an updated one). To push them: give the token the write:repository scope (an Actions job token: contents write), let actions/checkout persist its credentials, and do not protect rollgen/* branches.";

/** POST /contents for a new branch; an updated one costs one more (the run budget counts it). */
const API_BRANCH_REQUESTS = 1;

/**
 * The Gitea and Forgejo ScmClient, by plain fetch against `<server>/api/v1` (their API is small and
 * the same on both). Step branches go by git push, as on GitHub, or by the contents API once a push
 * was refused (contents.ts, said once); PRs, labels, merges, statuses and
 * comments by REST. Each failure leaves as an ScmError in Gitea's words, naming the token scope a
 * 401/403 is about; the token is never in a URL, argv or message.
 */
export function createGiteaScm(connection: ScmConnection, options: GiteaScmOptions = {}): ScmClient {
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(connection.repository.trim());
  if (!match)
    throw new ScmError(
      'connect to Gitea',
      undefined,
      `repository must be "owner/name", got "${connection.repository}"`,
    );
  const [, owner, repo] = match;
  const meter = new RequestMeter();
  const baseUrl = connection.apiUrl.replace(/\/+$/, '');
  const gh: GiteaRepo = {
    http: new GiteaHttp(baseUrl, connection.token, meter, options),
    owner,
    repo,
    path: `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`,
  };
  const labels = new LabelIds(gh);
  // Commits this run saw as a PR's head or merge: where an analysis record's comment goes.
  const pullOfSha = new Map<string, number>();
  const seen = (p: ApiPull) => {
    pullOfSha.set(p.head.sha, p.number);
    if (p.merge_commit_sha) pullOfSha.set(p.merge_commit_sha, p.number);
    return toPullRequest(p);
  };
  const guard = async <T>(action: string, scope: GiteaScope, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      const exists = error instanceof GiteaHttpError && error.status === 409 && action.startsWith('open a PR');
      throw toScmError(
        `${action} in ${owner}/${repo}`,
        error,
        connection.token,
        scope,
        exists ? 'already-exists' : undefined,
      );
    }
  };
  const server = (connection.serverUrl ?? baseUrl.replace(/\/api\/v1$/, '')).replace(/\/+$/, '');
  const writer = connection.localRepo
    ? new GitBranchWriter(
        {
          repo: connection.localRepo,
          url: `${server}/${owner}/${repo}.git`,
          token: connection.token,
          timeoutMs: 600_000,
        },
        options.notice ?? ((line) => processStderr(`${line}\n`)),
        REFUSAL,
      )
    : undefined;
  const local = connection.localRepo;
  const { writeBranches, commitToBranch } = branchWrites(writer, (req) =>
    local
      ? guard(`commit ${req.changes.length} file(s) to branch ${req.branch}`, 'write:repository', () =>
          writeByContents(gh, local, req),
        )
      : Promise.reject(new ScmError(`write branch ${req.branch}`, undefined, 'no local checkout to build it from')),
  );
  return {
    writeBranches,
    usage: () => meter.usage(writer?.active ? 0 : API_BRANCH_REQUESTS),
    branchHead: (branch) => guard(`read branch ${branch}`, 'read:repository', () => fetchBranchHead(gh, branch)),
    listPulls: ({ prefix, state, closedSince }) =>
      guard(`list ${state} pull requests`, 'read:repository', async () =>
        (await listPullsByPrefix(gh, prefix, state, closedSince)).map(seen),
      ),
    commitToBranch,
    createPull: (req) =>
      guard(`open a PR from ${req.branch} into ${req.base}`, 'write:repository', async () =>
        seen(await createPullRequest(gh, labels, req)),
      ),
    updatePull: (number, req) =>
      guard(`update PR #${number}`, req.labels ? 'write:issue' : 'write:repository', async () =>
        seen(await updatePullRequest(gh, labels, number, req)),
      ),
    mergePull: (number, req) =>
      guard(`merge PR #${number}`, 'write:repository', () => mergePullRequest(gh, number, req)),
    checks: (sha) =>
      guard(`read the statuses of commit ${sha.slice(0, 12)}`, 'read:repository', () => fetchChecks(gh, sha)),
    comment: (number, body) =>
      guard(`comment on PR #${number}`, 'write:issue', async () => void (await createComment(gh, number, body))),
    commitStatuses: (sha) =>
      guard(`read the commit statuses of ${sha.slice(0, 12)}`, 'read:repository', async () =>
        (await fetchStatuses(gh, sha)).map(toCommitStatus),
      ),
    checkRuns: (sha, name) =>
      guard(`read the analysis records of ${sha.slice(0, 12)}`, 'read:issue', () => readRecords(gh, sha, name)),
    putCheckRun: (req) =>
      guard(
        `${req.id === undefined ? 'record' : 'update'} analysis "${req.name}" on ${req.sha.slice(0, 12)}`,
        'write:issue and write:repository',
        () => writeRecord(gh, req, (sha) => pullOfSha.get(sha)),
      ),
  };
}

/** One request: GET /branches/{branch}; 404 means no such branch. */
async function fetchBranchHead(gh: GiteaRepo, branch: string): Promise<string | undefined> {
  try {
    const { data } = await gh.http.request<{ commit: { id: string } }>('GET', `${gh.path}/branches/${branch}`);
    return data.commit.id;
  } catch (error) {
    if (error instanceof GiteaHttpError && error.status === 404) return undefined;
    throw error;
  }
}
