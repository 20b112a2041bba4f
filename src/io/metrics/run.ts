import { measure, MeasureOptions } from './measure';
import { apply, metricRecord, newRecord } from '../../analysis/record';
import { due } from '../../analysis/schedule';
import { AnalysisRecord, AnalysisSpec, MetricSpec, Verdict } from '../../analysis/types';
import { assessMetric, effectiveCount, isCompleted, verdict } from '../../analysis/verdict';

export interface RoundOptions extends Pick<MeasureOptions, 'signal' | 'env' | 'timeoutMs'> {
  readonly now: () => Date;
  /** Which due metrics to take (default all); `rollgen analyze` skips unbounded metrics already measured. */
  readonly only?: (metric: string) => boolean;
  /** Decide what is due as if at this time (default now); `--no-wait` looks far ahead. */
  readonly dueAt?: Date;
}

export interface Round {
  readonly record: AnalysisRecord;
  readonly verdict: Verdict;
  /** How many measurements this round took (one request each). */
  readonly taken: number;
  /** ISO time when the next measurement falls due, if the analysis goes on. */
  readonly next?: string;
}

/**
 * One scheduled run's share of an analysis (what the Action does per `rollgen pr`): the measurements
 * due at `now`, taken in parallel and applied to the record, then the verdict. At most one request
 * per metric; a rerun at the same time finds nothing due, so it never measures twice.
 */
export async function takeDue(spec: AnalysisSpec, record: AnalysisRecord, o: RoundOptions): Promise<Round> {
  const names = due(spec, record, o.dueAt ?? o.now()).metrics.filter((m) => !o.only || o.only(m));
  const options = { ...o, analysisStartedAt: record.startedAt };
  const taken = await Promise.all(names.map(async (m) => ({ m, x: await measure(metricOf(spec, m), options) })));
  const after = taken.reduce((r, { m, x }) => apply(spec, r, m, x), record);
  const next = due(spec, after, o.dueAt ?? o.now()).next;
  return { record: after, verdict: verdict(spec, after), taken: taken.length, ...(next ? { next } : {}) };
}

const metricOf = (spec: AnalysisSpec, name: string) => spec.metrics.find((s) => s.name === name)!;

export interface RunOptions extends Pick<MeasureOptions, 'signal' | 'env'> {
  readonly key: string;
  readonly now: () => Date;
  /** false: take due measurements back to back instead of waiting out intervals and initialDelay. */
  readonly wait: boolean;
  readonly sleep: (ms: number) => Promise<void>;
  /**
   * A background analysis ends when the rollout moves on (Argo terminates it): its metrics without
   * count end Successful then. A step analysis is never terminated: such a metric keeps it Running.
   */
  readonly background: boolean;
}

/**
 * Runs one analysis to its end locally (`rollgen analyze`): every measurement of a count-limited
 * metric, and one of a metric without count. Then a background analysis counts as terminated (as
 * Argo ends it when the rollout moves on); a step analysis stays Running, as it never completes.
 */
export async function runToEnd(
  spec: AnalysisSpec,
  o: RunOptions,
): Promise<{ record: AnalysisRecord; verdict: Verdict }> {
  let record = newRecord(spec, o.key, o.now());
  const only = (m: string) => !unboundedDone(spec, record, m);
  for (;;) {
    // Without waiting, every metric not yet done is due at once.
    const round = await takeDue(spec, record, { ...o, only, ...(o.wait ? {} : { dueAt: new Date(8.64e15) }) });
    record = round.record;
    if (isCompleted(round.verdict.phase)) return { record, verdict: round.verdict };
    // Owed: a metric still to finish that is not an unbounded one already measured (those are not waited for).
    const owed = spec.metrics.some((m) => !unboundedDone(spec, record, m.name) && !metricDone(m, record));
    if (!owed || (round.taken === 0 && !round.next))
      return { record, verdict: verdict(spec, record, { terminating: o.background }) };
    if (round.taken === 0 && round.next) await o.sleep(Math.max(0, Date.parse(round.next) - o.now().getTime()));
  }
}

/** A metric without a count that has one successful, failed or inconclusive measurement: enough for a local run. */
function unboundedDone(spec: AnalysisSpec, record: AnalysisRecord, name: string): boolean {
  return effectiveCount(metricOf(spec, name)) === undefined && metricRecord(record, name).count > 0;
}

const metricDone = (m: MetricSpec, record: AnalysisRecord): boolean =>
  isCompleted(assessMetric(m, metricRecord(record, m.name), false).phase);
