import { ScmError } from '../../errors';
import { processStderr } from '../../io/stdout';
import { GitBranchWriter, branchWrites } from '../github/branches';
import type { ScmClient, ScmConnection } from '../types';
import { commitByApi } from './commits';
import { toScmError } from './errors';
import { GitLabHttp, GitLabHttpOptions } from './http';
import { asPull, listMergeRequests, MergeRequest, mergeMergeRequest } from './merge-requests';
import { AnalysisRecords, checks, commitStatuses } from './records';

export type GitLabScmOptions = GitLabHttpOptions & { readonly notice?: (line: string) => void };

const PUSH_REFUSED =
  "step branches go through GitLab's commits API for the rest of this run (one request a branch). To push them: give the access token the api scope (it includes write_repository) and the Developer role, and do not protect rollgen/* branches.";

/** One POST /repository/commits (two for a branch left from an earlier merge request). */
const API_BRANCH_REQUESTS = 1;

/**
 * The ScmClient for GitLab (gitlab.com or self-managed, REST API v4) over fetch. Step branches go
 * by git push (GitBranchWriter, the token in an HTTP header only), or by the commits API once a push
 * was refused (commits.ts, said once); merge requests, notes, merges and
 * commit statuses by the API. Every failure is an ScmError in GitLab's words, the token redacted.
 */
export function createGitLabScm(connection: ScmConnection, options: GitLabScmOptions = {}): ScmClient {
  const project = connection.repository;
  const base = `/projects/${encodeURIComponent(project)}`;
  const http = new GitLabHttp(connection.apiUrl.replace(/\/+$/, ''), connection.token, options);
  const records = new AnalysisRecords(http, base);
  const guard = async <T>(action: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toScmError(`${action} in ${project}`, error, connection.token, project);
    }
  };
  const server = (connection.serverUrl ?? connection.apiUrl.replace(/\/api\/v4\/?$/, '')).replace(/\/+$/, '');
  const writer = connection.localRepo
    ? new GitBranchWriter(
        { repo: connection.localRepo, url: `${server}/${project}.git`, token: connection.token, timeoutMs: 600_000 },
        options.notice ?? ((line) => processStderr(`${line}\n`)),
        PUSH_REFUSED,
      )
    : undefined;
  const local = connection.localRepo;
  const { writeBranches, commitToBranch } = branchWrites(writer, (req) =>
    local
      ? guard(`commit ${req.changes.length} file(s) to branch ${req.branch}`, () => commitByApi(http, base, local, req))
      : Promise.reject(
          new ScmError(`write branch ${req.branch}`, undefined, 'no local checkout to build the commit from'),
        ),
  );
  const mr = (path: string) => `${base}/merge_requests${path}`;
  return {
    writeBranches,
    usage: () => http.usage(writer?.active ? 0 : API_BRANCH_REQUESTS),
    branchHead: (branch) =>
      guard(`read branch ${branch}`, async () => {
        try {
          const { data } = await http.request<{ commit: { id: string } }>(
            'GET',
            `${base}/repository/branches/${encodeURIComponent(branch)}`,
          );
          return data.commit.id;
        } catch (e) {
          if ((e as { status?: number }).status === 404) return undefined;
          throw e;
        }
      }),
    listPulls: ({ prefix, state, closedSince }) =>
      guard(`list ${state} merge requests`, async () =>
        (await listMergeRequests(http, base, prefix, state, closedSince)).map(asPull),
      ),
    commitToBranch,
    createPull: (req) =>
      guard(`open a merge request from ${req.branch} into ${req.base}`, async () => {
        const body = {
          source_branch: req.branch,
          target_branch: req.base,
          title: req.title,
          description: req.body,
          labels: req.labels.join(','),
        };
        return asPull((await http.request<MergeRequest>('POST', mr(''), {}, body)).data);
      }),
    updatePull: (iid, req) =>
      guard(`update !${iid}`, async () => {
        const body = {
          ...(req.title !== undefined ? { title: req.title } : {}),
          ...(req.body !== undefined ? { description: req.body } : {}),
          ...(req.labels !== undefined ? { labels: req.labels.join(',') } : {}),
          ...(req.state !== undefined ? { state_event: req.state === 'closed' ? 'close' : 'reopen' } : {}),
        };
        return asPull((await http.request<MergeRequest>('PUT', mr(`/${iid}`), {}, body)).data);
      }),
    mergePull: (iid, req) => guard(`merge !${iid}`, () => mergeMergeRequest(http, base, iid, req)),
    checks: (sha) => guard(`read the pipeline and statuses of ${sha.slice(0, 12)}`, () => checks(http, base, sha)),
    comment: (iid, body) =>
      guard(`comment on !${iid}`, async () => {
        await http.request('POST', mr(`/${iid}/notes`), {}, { body });
      }),
    commitStatuses: (sha) =>
      guard(`read the commit statuses of ${sha.slice(0, 12)}`, () => commitStatuses(http, base, sha)),
    checkRuns: (sha, name) => guard(`read the analysis records of ${sha.slice(0, 12)}`, () => records.read(sha, name)),
    putCheckRun: (req) =>
      guard(`${req.id === undefined ? 'record' : 'update'} analysis "${req.name}" on ${req.sha.slice(0, 12)}`, () =>
        records.put(req),
      ),
  };
}
