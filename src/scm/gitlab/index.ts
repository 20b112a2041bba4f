import { ScmError } from '../../errors';
import { processStderr } from '../../io/stdout';
import { GitBranchWriter } from '../github/branches';
import type { BranchWrite, CommitRequest, ScmClient, ScmConnection } from '../types';
import { toScmError } from './errors';
import { GitLabHttp, GitLabHttpOptions } from './http';
import { asPull, listMergeRequests, MergeRequest, mergeMergeRequest } from './merge-requests';
import { AnalysisRecords, checks, commitStatuses } from './records';

export type GitLabScmOptions = GitLabHttpOptions & { readonly notice?: (line: string) => void };

const PUSH_REFUSED =
  'rollgen writes step branches on GitLab by git push only: give the access token the api scope (it includes write_repository) and the Developer role, and do not protect rollgen/* branches; nothing was written.';

/**
 * The ScmClient for GitLab (gitlab.com or self-managed, REST API v4) over fetch. Step branches go
 * by git push (GitBranchWriter, the token in an HTTP header only); merge requests, notes, merges and
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
  const writeBranches = async (reqs: readonly CommitRequest[]): Promise<BranchWrite[]> => {
    if (writer?.active) return writer.write(reqs);
    const why = connection.localRepo
      ? 'the git push was refused earlier in this run'
      : 'no local checkout to push from';
    return reqs.map((r) => ({ branch: r.branch, error: new ScmError(`push branch ${r.branch}`, undefined, why) }));
  };
  const mr = (path: string) => `${base}/merge_requests${path}`;
  return {
    writeBranches,
    usage: () => http.usage(0),
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
    commitToBranch: async (req) => {
      const [written] = await writeBranches([req]);
      if ('error' in written) throw written.error;
      return written.sha;
    },
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
