import type { CheckConclusion, CheckRun, CheckRunRequest, CommitStatus } from '../types';
import type { GitHubRepo } from './repo';

/** What rollgen reads of one check run from the checks API. */
interface ApiCheckRun {
  readonly id: number;
  readonly name: string;
  readonly status: string;
  readonly conclusion: string | null;
  readonly started_at?: string | null;
  readonly completed_at?: string | null;
  readonly output?: { title?: string | null; summary?: string | null; text?: string | null };
}

/** One request: GET commits/{sha}/status, whose `statuses` hold the latest state per context. */
export async function fetchCommitStatuses(gh: GitHubRepo, sha: string): Promise<CommitStatus[]> {
  const { owner, repo } = gh;
  const { data } = await gh.octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref: sha, per_page: 100 });
  return data.statuses.map((s) => ({
    context: s.context,
    state: s.state as CommitStatus['state'],
    updatedAt: s.updated_at,
    ...(s.description ? { description: s.description } : {}),
  }));
}

/** GET commits/{sha}/check-runs (filter: check_name), one request per 100 runs. */
export async function fetchCheckRuns(gh: GitHubRepo, sha: string, name?: string): Promise<CheckRun[]> {
  const { owner, repo } = gh;
  const runs = await gh.octokit.paginate(gh.octokit.rest.checks.listForRef, {
    owner,
    repo,
    ref: sha,
    per_page: 100,
    filter: 'latest',
    ...(name ? { check_name: name } : {}),
  });
  return runs.map(toCheckRun);
}

/** POST check-runs, or PATCH check-runs/{id} when the run exists: one request either way. */
export async function putCheckRun(gh: GitHubRepo, req: CheckRunRequest): Promise<CheckRun> {
  const { owner, repo } = gh;
  const fields = {
    name: req.name,
    status: req.status,
    ...(req.conclusion ? { conclusion: req.conclusion } : {}),
    output: {
      title: req.output.title,
      summary: req.output.summary,
      ...(req.output.text ? { text: req.output.text } : {}),
    },
  };
  const { data } =
    req.id === undefined
      ? await gh.octokit.rest.checks.create({ owner, repo, head_sha: req.sha, ...fields } as never)
      : // Octokit types a completed update as a separate overload; the fields are the same.
        await gh.octokit.rest.checks.update({ owner, repo, check_run_id: req.id, ...fields } as never);
  return toCheckRun(data as ApiCheckRun);
}

function toCheckRun(r: ApiCheckRun): CheckRun {
  return {
    id: r.id,
    name: r.name,
    status: r.status as CheckRun['status'],
    conclusion: (r.conclusion ?? null) as CheckConclusion | null,
    ...(r.started_at ? { startedAt: r.started_at } : {}),
    ...(r.completed_at ? { completedAt: r.completed_at } : {}),
    output: {
      ...(r.output?.title ? { title: r.output.title } : {}),
      ...(r.output?.summary ? { summary: r.output.summary } : {}),
      ...(r.output?.text ? { text: r.output.text } : {}),
    },
  };
}
