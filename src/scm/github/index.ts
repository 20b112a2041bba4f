import type { CommitRequest, ScmClient, ScmConnection } from '../types';
import { GitBranchWriter, branchWrites } from './branches';
import { fetchChecks } from './checks';
import { gitRemoteUrl, parseConnection } from './connection';
import { toScmError } from './errors';
import { createCommitOnBranch, fetchBranchHead } from './git';
import { signatureOn } from './local-commits';
import { RequestMeter } from './meter';
import { createOctokit, GitHubScmOptions } from './octokit';
import { createComment, createPullRequest, listPullsByPrefix, mergePullRequest, updatePullRequest } from './pulls';
import type { GitHubRepo } from './repo';
import { processStderr } from '../../io/stdout';
import { fetchCheckRuns, fetchCommitStatuses, putCheckRun } from './signals';

export type { GitHubScmOptions, LogLevel } from './octokit';

/** A tree, a commit and a ref (one more when the branch exists): what a branch costs by REST. */
const REST_BRANCH_REQUESTS = 3;

const CHECKS_WRITE =
  'grant the token checks: write (rollgen records each analysis as a check run; in a workflow, under permissions:, for a GitHub App, in its permissions)';

/**
 * The Octokit-backed ScmClient (retry + throttling; GitHub Enterprise Server through the API URL).
 * Each method costs a fixed number of requests, documented on its helper; every failure leaves as
 * an ScmError naming what was being done, with the token redacted.
 */
export function createGitHubScm(connection: ScmConnection, options: GitHubScmOptions = {}): ScmClient {
  const coords = parseConnection(connection);
  const { owner, repo, baseUrl } = coords;
  const meter = new RequestMeter();
  const gh: GitHubRepo = { octokit: createOctokit(baseUrl, connection.token, options, meter), owner, repo };
  /** `forbidden`: what to grant when GitHub answers 403 (the permission this request needs). */
  const guard = async <T>(action: string, work: () => Promise<T>, forbidden?: string): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toScmError(`${action} in ${owner}/${repo}`, error, connection.token, forbidden);
    }
  };
  const local = connection.localRepo;
  const writer = local
    ? new GitBranchWriter(
        { repo: local, url: gitRemoteUrl(coords, connection.serverUrl), token: connection.token, timeoutMs: 600_000 },
        options.notice ?? ((line) => processStderr(`${line}\n`)),
      )
    : undefined;
  const restCommit = (req: CommitRequest) =>
    guard(`commit ${req.changes.length} file(s) to branch ${req.branch}`, () =>
      createCommitOnBranch(gh, req, local ? signatureOn(local, req.parent) : undefined),
    );
  const { writeBranches, commitToBranch } = branchWrites(writer, restCommit);
  return {
    writeBranches,
    usage: () => meter.usage(writer?.active ? 0 : REST_BRANCH_REQUESTS),
    branchHead: (branch) => guard(`read branch ${branch}`, () => fetchBranchHead(gh, branch)),
    listPulls: ({ prefix, state, closedSince }) =>
      guard(`list ${state} pull requests`, () => listPullsByPrefix(gh, prefix, state, closedSince)),
    commitToBranch,
    createPull: (req) => guard(`open a PR from ${req.branch} into ${req.base}`, () => createPullRequest(gh, req)),
    updatePull: (number, req) => guard(`update PR #${number}`, () => updatePullRequest(gh, number, req)),
    mergePull: (number, req) => guard(`merge PR #${number}`, () => mergePullRequest(gh, number, req)),
    checks: (sha) => guard(`read the checks of commit ${sha.slice(0, 12)}`, () => fetchChecks(gh, sha)),
    comment: (number, body) => guard(`comment on PR #${number}`, () => createComment(gh, number, body)),
    commitStatuses: (sha) =>
      guard(`read the commit statuses of ${sha.slice(0, 12)}`, () => fetchCommitStatuses(gh, sha)),
    checkRuns: (sha, name) => guard(`read the check runs of ${sha.slice(0, 12)}`, () => fetchCheckRuns(gh, sha, name)),
    putCheckRun: (req) =>
      guard(
        `${req.id === undefined ? 'create' : 'update'} check run "${req.name}" on ${req.sha.slice(0, 12)}`,
        () => putCheckRun(gh, req),
        CHECKS_WRITE,
      ),
  };
}
