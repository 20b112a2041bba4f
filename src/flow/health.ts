import type { ArgoReading } from '../io/argocd';
import type { HealthPolicy } from '../io/config';
import type { CheckRun, CommitStatus } from '../scm/types';

/** What one commit of the base carries: its statuses and check runs (read at the edge). */
export interface CommitSignals {
  readonly sha: string;
  readonly statuses: readonly CommitStatus[];
  readonly checkRuns: readonly CheckRun[];
}

/** The health of the step the base carries, as the GitOps engine reported it. */
export type Health =
  | { readonly state: 'healthy'; readonly since: Date; readonly sha: string }
  | { readonly state: 'waiting'; readonly awaited: readonly string[] }
  | { readonly state: 'failed'; readonly reasons: readonly string[]; readonly sha: string };

/** One signal that ended: success, or a failure naming what failed. */
interface Outcome {
  readonly ok: boolean;
  readonly what: string;
  readonly at: Date;
  readonly sha: string;
}

// Conclusions that count as healthy; any other completed run (failure, timed_out, cancelled...) failed.
const PASSING = new Set(['success', 'neutral', 'skipped']);

/**
 * Judges a health policy over the commits that carry the step, newest first (the base's head back
 * to the commit that landed the step). For each glob the newest commit where a matching status or
 * check run ended decides: any failure fails the step; all globs ended in success is healthy since
 * the last of those successes arrived; otherwise the globs without a result are awaited. A pending
 * result on a newer commit does not hide an ended one on an older commit carrying the same step.
 * Pure.
 */
export function judgeHealth(policy: HealthPolicy, commits: readonly CommitSignals[]): Health {
  const globs = [
    ...policy.statuses.map((g) => ({ g, kind: 'status' as const })),
    ...policy.checkRuns.map((g) => ({ g, kind: 'check run' as const })),
  ];
  const decided = globs.map(({ g, kind }) => ({ g, kind, outcomes: newestOutcomes(g, kind, commits) }));
  const failures = decided.flatMap((d) => (d.outcomes ?? []).filter((o) => !o.ok));
  if (failures.length > 0) return { state: 'failed', reasons: failures.map((f) => f.what), sha: failures[0].sha };
  const awaited = decided.filter((d) => d.outcomes === undefined).map((d) => `${d.kind} ${d.g}`);
  if (awaited.length > 0) return { state: 'waiting', awaited };
  const all = decided.flatMap((d) => d.outcomes!);
  const last = all.reduce((a, b) => (b.at > a.at ? b : a));
  return { state: 'healthy', since: last.at, sha: last.sha };
}

/** The ended results matching a glob on the newest commit that has any; undefined when none has. */
function newestOutcomes(glob: string, kind: 'status' | 'check run', commits: readonly CommitSignals[]) {
  // Required here, not imported: every command would otherwise initialise picomatch at start-up.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const picomatch = require('picomatch') as typeof import('picomatch');
  const match = picomatch(glob, { dot: true });
  for (const c of commits) {
    const ended =
      kind === 'status'
        ? c.statuses.filter((s) => match(s.context) && s.state !== 'pending').map((s) => statusOutcome(s, c.sha))
        : latestRuns(c.checkRuns.filter((r) => match(r.name) && r.status === 'completed')).map((r) =>
            runOutcome(r, c.sha),
          );
    if (ended.length > 0) return ended;
  }
  return undefined;
}

function statusOutcome(s: CommitStatus, sha: string): Outcome {
  const why = s.description ? `: ${s.description}` : '';
  return { ok: s.state === 'success', what: `status ${s.context} is ${s.state}${why}`, at: new Date(s.updatedAt), sha };
}

function runOutcome(r: CheckRun, sha: string): Outcome {
  const at = new Date(r.completedAt ?? r.startedAt ?? 0);
  return { ok: PASSING.has(r.conclusion ?? ''), what: `check run ${r.name} concluded ${r.conclusion}`, at, sha };
}

/** A re-run check keeps its name: only the newest run (highest id) per name counts. */
function latestRuns(runs: readonly CheckRun[]): CheckRun[] {
  const byName = new Map<string, CheckRun>();
  for (const r of runs) if ((byName.get(r.name)?.id ?? -1) < r.id) byName.set(r.name, r);
  return [...byName.values()];
}

/**
 * Argo CD's own view of the app (read from its API where a token is given): healthy when it synced
 * one of the commits carrying the step and reports it Synced and Healthy; failed when that sync
 * failed or the app is Degraded; otherwise waiting, saying what it shows. `now` dates a success
 * whose operation has no finish time. Pure.
 */
export function judgeArgo(reading: ArgoReading, carrying: readonly string[], now: Date): Health {
  if ('error' in reading) return { state: 'waiting', awaited: [`Argo CD (${reading.error})`] };
  const a = reading.app;
  const at = (sha?: string) => sha !== undefined && carrying.includes(sha);
  const what = `Argo CD application ${a.name}`;
  if (at(a.operationRevision) && (a.operationPhase === 'Failed' || a.operationPhase === 'Error'))
    return { state: 'failed', reasons: [`${what}: sync ${a.operationPhase}`], sha: a.operationRevision! };
  if (!at(a.syncRevision))
    return { state: 'waiting', awaited: [`${what} to sync this step (it is at ${a.syncRevision ?? 'no revision'})`] };
  if (a.health === 'Degraded') return { state: 'failed', reasons: [`${what} is Degraded`], sha: a.syncRevision! };
  if (a.syncStatus === 'Synced' && a.health === 'Healthy')
    return { state: 'healthy', since: a.finishedAt ? new Date(a.finishedAt) : now, sha: a.syncRevision! };
  return { state: 'waiting', awaited: [`${what} (${a.syncStatus ?? '?'}, ${a.health ?? '?'})`] };
}

/** Several sources of health at once: any failure fails, anything awaited waits, else healthy since the last. Pure. */
export function combineHealth(parts: readonly Health[]): Health {
  const failed = parts.filter((p) => p.state === 'failed');
  if (failed.length > 0) return { state: 'failed', reasons: failed.flatMap((f) => f.reasons), sha: failed[0].sha };
  const waiting = parts.filter((p) => p.state === 'waiting');
  if (waiting.length > 0) return { state: 'waiting', awaited: waiting.flatMap((w) => w.awaited) };
  const healthy = parts.filter((p) => p.state === 'healthy');
  return healthy.reduce((a, b) => (b.since > a.since ? b : a));
}
