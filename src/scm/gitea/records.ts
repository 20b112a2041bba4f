import { ScmError } from '../../errors';
import type { CheckConclusion, CheckRun, CheckRunRequest } from '../types';
import { createComment, editComment, readComment } from './comments';
import { GiteaHttpError } from './http';
import type { ApiPull, GiteaRepo } from './repo';
import { ApiStatus, fetchStatuses, postStatus } from './statuses';

/**
 * Gitea has no check runs. rollgen keeps each analysis record as two things the forge holds:
 * - a commit status on the commit (context = the check run's name), the gate Gitea's branch
 *   protection and UI see, whose target_url links to
 * - a comment on the PR that landed the commit, holding the title, summary (the table) and text (the
 *   machine-readable records) under a hidden marker; the record's id is that comment's id.
 * Reading back goes from the commit alone: its statuses, then the comment the status links to, so a
 * fresh runner restarts the analysis from Gitea, as from a GitHub check run.
 */
const MARKER = /^<!-- rollgen:analysis-record (\{.*\}) -->\n/;
const TEXT = '\n\n<!-- rollgen:record-text -->\n';

interface Meta {
  readonly name: string;
  readonly sha: string;
  readonly title: string;
  readonly status: CheckRun['status'];
  readonly conclusion: CheckConclusion | null;
}

export function formatRecord(req: CheckRunRequest): string {
  const meta: Meta = {
    name: req.name,
    sha: req.sha,
    title: req.output.title,
    status: req.status,
    conclusion: req.conclusion ?? null,
  };
  return `<!-- rollgen:analysis-record ${JSON.stringify(meta).replaceAll('--', '-\\u002d')} -->\n### ${req.output.title}\n\n${req.output.summary}${TEXT}${req.output.text ?? ''}`;
}

/** The record a comment holds; undefined when the comment is no rollgen record. */
export function parseRecord(id: number, body: string): CheckRun | undefined {
  const found = MARKER.exec(body);
  if (!found) return undefined;
  const meta = JSON.parse(found[1]) as Meta;
  const rest = body.slice(found[0].length);
  const cut = rest.indexOf(TEXT);
  const summary = (cut < 0 ? rest : rest.slice(0, cut)).replace(/^### .*\n\n/, '');
  const text = cut < 0 ? undefined : rest.slice(cut + TEXT.length);
  return {
    id,
    name: meta.name,
    status: meta.status,
    conclusion: meta.conclusion,
    output: { title: meta.title, summary, ...(text ? { text } : {}) },
  };
}

/** A check run's state as a commit status: running is pending; only a pass is success. */
function statusState(req: CheckRunRequest): string {
  if (req.status !== 'completed') return 'pending';
  return req.conclusion === 'success' || req.conclusion === 'neutral' || req.conclusion === 'skipped'
    ? 'success'
    : 'failure';
}

const commentId = (url: string | null | undefined) => Number(/#issuecomment-(\d+)$/.exec(url ?? '')?.[1] ?? NaN);

/**
 * With `name`: one request for the statuses, one more per matching record to read its comment.
 * Without: every status as a completed (or running) check run, no comment read, so a health gate's
 * `checkRuns:` can name a Gitea Actions job, whose result Gitea posts as a commit status.
 */
export async function readRecords(gh: GiteaRepo, sha: string, name?: string): Promise<CheckRun[]> {
  const statuses = await fetchStatuses(gh, sha);
  if (!name) return statuses.map(asCheckRun);
  const out: CheckRun[] = [];
  for (const s of statuses.filter((x) => x.context === name)) {
    const id = commentId(s.target_url);
    const comment = Number.isFinite(id) ? await readComment(gh, id) : undefined;
    const record = comment && parseRecord(comment.id, comment.body);
    if (record) out.push(record);
  }
  return out;
}

function asCheckRun(s: ApiStatus): CheckRun {
  const done = s.status !== 'pending' && s.status !== 'warning';
  const conclusion: CheckConclusion | null = !done ? null : s.status === 'success' ? 'success' : 'failure';
  const id = commentId(s.target_url);
  return {
    id: Number.isFinite(id) ? id : s.id,
    name: s.context,
    status: done ? 'completed' : 'in_progress',
    conclusion,
  };
}

/** Two requests (the comment, then the status), plus one to find the PR when this run has not listed it. */
export async function writeRecord(
  gh: GiteaRepo,
  req: CheckRunRequest,
  pullOf: (sha: string) => number | undefined,
): Promise<CheckRun> {
  const body = formatRecord(req);
  const comment =
    req.id !== undefined
      ? await editComment(gh, req.id, body)
      : await createComment(gh, await landingPull(gh, req.sha, pullOf), body);
  await postStatus(gh, req.sha, {
    context: req.name,
    state: statusState(req),
    description: req.output.title.slice(0, 255),
    target_url: comment.html_url,
  });
  return parseRecord(comment.id, body)!;
}

/** The PR whose head or merge is `sha`: seen this run, else GET /commits/{sha}/pull (Gitea 1.22+, Forgejo 9+). */
async function landingPull(gh: GiteaRepo, sha: string, pullOf: (sha: string) => number | undefined): Promise<number> {
  const known = pullOf(sha);
  if (known !== undefined) return known;
  try {
    return (await gh.http.request<ApiPull>('GET', `${gh.path}/commits/${sha}/pull`)).data.number;
  } catch (error) {
    if (!(error instanceof GiteaHttpError) || error.status !== 404) throw error;
    throw new ScmError(
      `record the analysis of ${sha.slice(0, 12)}`,
      404,
      'no PR landed this commit, and Gitea keeps rollgen analysis records on the PR that landed the step (a commit status links to it); land the step through its PR',
    );
  }
}
