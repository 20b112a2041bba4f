import { measure, MeasureOptions } from './measure';
import { apply, metricRecord, newRecord } from './record';
import { due } from './schedule';
import { AnalysisRecord, AnalysisSpec, Verdict } from './types';
import { effectiveCount, isCompleted, verdict } from './verdict';

export interface RunOptions extends Pick<MeasureOptions, 'signal' | 'env'> {
  readonly key: string;
  readonly now: () => Date;
  /** false: take due measurements back to back instead of waiting out intervals and initialDelay. */
  readonly wait: boolean;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * Runs one analysis to its end locally (`rollgen analyze`): every measurement of a count-limited
 * metric, and one of a metric that would run until the gate ends (then the run counts as
 * terminated, as Argo ends a background analysis). The loop is the engine's due/measure/apply/verdict.
 */
export async function runToEnd(
  spec: AnalysisSpec,
  o: RunOptions,
): Promise<{ record: AnalysisRecord; verdict: Verdict }> {
  let record = newRecord(spec, o.key, o.now());
  for (;;) {
    const decideAt = o.wait ? o.now() : new Date(8.64e15);
    const pending = due(spec, record, decideAt).metrics.filter((m) => !unboundedDone(spec, record, m));
    if (pending.length > 0) {
      const taken = await Promise.all(
        pending.map(async (m) => ({
          m,
          x: await measure(
            spec.metrics.find((s) => s.name === m)!,
            { ...o },
          ),
        })),
      );
      for (const { m, x } of taken) record = apply(spec, record, m, x);
    }
    const v = verdict(spec, record);
    if (isCompleted(v.phase)) return { record, verdict: v };
    const next = due(spec, record, decideAt);
    const remaining = next.metrics.filter((m) => !unboundedDone(spec, record, m));
    if (remaining.length === 0 && (!o.wait || !nextBounded(spec, record, next.next)))
      return { record, verdict: verdict(spec, record, { terminating: true }) };
    if (o.wait && remaining.length === 0 && next.next)
      await o.sleep(Math.max(0, Date.parse(next.next) - o.now().getTime()));
  }
}

/** A metric without a count that has one successful-or-failed measurement: enough for a local run. */
function unboundedDone(spec: AnalysisSpec, record: AnalysisRecord, name: string): boolean {
  const metric = spec.metrics.find((m) => m.name === name)!;
  return effectiveCount(metric) === undefined && metricRecord(record, name).count > 0;
}

/** Whether a later measurement is still owed to some metric that is not yet done. */
function nextBounded(spec: AnalysisSpec, record: AnalysisRecord, next: string | undefined): boolean {
  if (!next) return false;
  return spec.metrics.some((m) => !unboundedDone(spec, record, m.name));
}
