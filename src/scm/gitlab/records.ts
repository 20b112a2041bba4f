import { ScmError } from '../../errors';
import type { CheckRun, CheckRunRequest, CheckState, CommitStatus } from '../types';
import { GitLabHttp } from './http';

/** GitLab's commit status object (GET /projects/:id/repository/commits/:sha/statuses). */
interface GitLabStatus {
  readonly name: string;
  readonly status:
    | 'created'
    | 'waiting_for_resource'
    | 'preparing'
    | 'pending'
    | 'running'
    | 'success'
    | 'failed'
    | 'canceled'
    | 'skipped'
    | 'manual'
    | 'scheduled';
  readonly description: string | null;
  readonly created_at: string;
  readonly started_at?: string | null;
  readonly finished_at?: string | null;
}

const stateOf = (s: GitLabStatus['status']): CommitStatus['state'] =>
  s === 'success' ? 'success' : s === 'failed' ? 'failure' : s === 'canceled' ? 'error' : 'pending';

/** The latest status per name (one request: GitLab keeps only the latest unless all=true). */
export async function commitStatuses(http: GitLabHttp, base: string, sha: string): Promise<CommitStatus[]> {
  const { data } = await http.request<GitLabStatus[]>('GET', `${base}/repository/commits/${sha}/statuses`, {
    per_page: 100,
  });
  const latest = new Map<string, GitLabStatus>();
  for (const s of data) {
    const seen = latest.get(s.name);
    if (!seen || Date.parse(s.created_at) >= Date.parse(seen.created_at)) latest.set(s.name, s);
  }
  return [...latest.values()].map((s) => ({
    context: s.name,
    state: stateOf(s.status),
    ...(s.description ? { description: s.description } : {}),
    updatedAt: s.finished_at ?? s.started_at ?? s.created_at,
  }));
}

/**
 * Combined: the commit's last pipeline (GET commit: last_pipeline.status) and its statuses, which
 * hold the pipeline's jobs, external statuses and rollgen's analyses. Skipped and manual jobs do not block.
 */
export async function checks(http: GitLabHttp, base: string, sha: string): Promise<CheckState> {
  const { data: commit } = await http.request<{ last_pipeline?: { status: string } | null }>(
    'GET',
    `${base}/repository/commits/${sha}`,
  );
  const statuses = await commitStatuses(http, base, sha);
  const pipeline = commit.last_pipeline?.status;
  const states = statuses.map((s) => s.state);
  if (pipeline === 'failed' || pipeline === 'canceled' || states.some((s) => s === 'failure' || s === 'error'))
    return 'failure';
  if ((pipeline && !['success', 'skipped', 'manual'].includes(pipeline)) || states.includes('pending'))
    return 'pending';
  return 'success';
}

/**
 * GitLab has no check runs. An analysis record is a commit status named like the check run (for
 * the gate and GitLab's UI) plus one note on the merge request that landed the commit, holding the
 * run as JSON behind a hidden marker (title, summary and text shown above it): the note's id is
 * the run's id, and reading the notes back restarts an analysis from GitLab alone.
 */
const MARKER = /<!-- rollgen-check-run (\{.*?\}) -->/s;

interface Note {
  readonly id: number;
  readonly body: string;
}

export class AnalysisRecords {
  private readonly carriers = new Map<string, number>();

  constructor(
    private readonly http: GitLabHttp,
    private readonly base: string,
  ) {}

  async read(sha: string, name?: string): Promise<CheckRun[]> {
    const iid = await this.carrier(sha, false);
    if (iid === undefined) return [];
    const notes = await this.http.pages<Note>(`${this.base}/merge_requests/${iid}/notes`, {
      sort: 'desc',
      order_by: 'created_at',
    });
    return notes.flatMap((n) => {
      const run = parse(n, sha);
      return run && (!name || run.name === name) ? [run] : [];
    });
  }

  async put(req: CheckRunRequest): Promise<CheckRun> {
    const iid = (await this.carrier(req.sha, true))!;
    const now = new Date().toISOString();
    const run: CheckRun & { sha: string } = {
      sha: req.sha,
      id: req.id ?? 0,
      name: req.name,
      status: req.status,
      conclusion: req.conclusion ?? null,
      startedAt: now,
      ...(req.status === 'completed' ? { completedAt: now } : {}),
      output: req.output,
    };
    const notes = `${this.base}/merge_requests/${iid}/notes`;
    const body = noteBody(run);
    const { data } =
      req.id === undefined
        ? await this.http.request<Note>('POST', notes, {}, { body })
        : await this.http.request<Note>('PUT', `${notes}/${req.id}`, {}, { body });
    await this.http.request(
      'POST',
      `${this.base}/statuses/${req.sha}`,
      {},
      {
        state: statusOf(req),
        name: req.name,
        description: req.output.title.slice(0, 255),
      },
    );
    return { ...run, id: data.id };
  }

  /** The merge request whose merge (or head) is `sha`: GET commits/:sha/merge_requests, once per commit. */
  private async carrier(sha: string, needed: boolean): Promise<number | undefined> {
    if (!this.carriers.has(sha)) {
      const { data } = await this.http.request<{ iid: number; state: string }[]>(
        'GET',
        `${this.base}/repository/commits/${sha}/merge_requests`,
      );
      const mr = data.find((m) => m.state === 'merged') ?? data[0];
      if (mr) this.carriers.set(sha, mr.iid);
    }
    const iid = this.carriers.get(sha);
    if (iid === undefined && needed)
      throw new ScmError(
        `record the analysis on ${sha.slice(0, 12)}`,
        undefined,
        'no merge request carries this commit; on GitLab rollgen keeps analysis records on the merge request that landed the step',
      );
    return iid;
  }
}

function statusOf(req: CheckRunRequest): string {
  if (req.status !== 'completed') return 'running';
  if (req.conclusion === 'success') return 'success';
  if (req.conclusion === 'failure' || req.conclusion === 'timed_out') return 'failed';
  if (req.conclusion === 'cancelled') return 'canceled';
  // Inconclusive waits for a person: shown as pending, never as passed.
  if (req.conclusion === 'action_required') return 'pending';
  return 'skipped';
}

function noteBody(run: CheckRun & { sha: string }): string {
  const { output, ...rest } = run;
  const record = JSON.stringify({ ...rest, output }).replace(/-->/g, '--\\u003e');
  return `**${run.name}**: ${output?.title ?? ''}\n\n${output?.summary ?? ''}\n\n${output?.text ?? ''}\n\n<!-- rollgen-check-run ${record} -->`;
}

function parse(note: Note, sha: string): CheckRun | undefined {
  const m = MARKER.exec(note.body);
  if (!m) return undefined;
  try {
    const run = JSON.parse(m[1]) as CheckRun & { sha: string };
    if (run.sha !== sha) return undefined;
    const { sha: _sha, ...rest } = run;
    return { ...rest, id: note.id };
  } catch {
    return undefined;
  }
}
