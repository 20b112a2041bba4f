import { metricRecord } from './record';
import { AnalysisPhase, AnalysisRecord, AnalysisSpec, MetricRecord, MetricSpec, MetricVerdict, Verdict } from './types';

/** Best to worst, as Argo orders phases when it picks the run's phase from its metrics. */
const ORDER: readonly AnalysisPhase[] = ['Successful', 'Running', 'Pending', 'Inconclusive', 'Error', 'Failed'];

export const isCompleted = (p: AnalysisPhase): boolean => p !== 'Pending' && p !== 'Running';

export interface VerdictOptions {
  /** The gate ended (Argo terminates the run): metrics that run until stopped count as Successful. */
  readonly terminating?: boolean;
}

/** Argo's assessRunStatus over a record: any metric in progress keeps the run Running; else the worst non-dry-run phase. Pure. */
export function verdict(spec: AnalysisSpec, record: AnalysisRecord, options: VerdictOptions = {}): Verdict {
  const terminating = options.terminating === true || isTerminating(spec, record);
  const metrics = spec.metrics.map((m) => assessMetric(m, metricRecord(record, m.name), terminating));
  const decisive = metrics.filter((m) => !m.dryRun && isCompleted(m.phase));
  const everythingCompleted = metrics.every((m) => isCompleted(m.phase));
  const worst = decisive.reduce<AnalysisPhase | undefined>(
    (w, m) => (w === undefined || ORDER.indexOf(m.phase) > ORDER.indexOf(w) ? m.phase : w),
    undefined,
  );
  const reasons = decisive
    .filter((m) => m.phase === worst && m.message)
    .map((m) => `metric "${m.name}" assessed ${m.phase} due to ${m.message}`);
  if (terminating) return { phase: worst ?? 'Successful', reasons, metrics };
  if (!everythingCompleted) {
    const started = metrics.some((m) => m.phase !== 'Pending');
    return { phase: started ? 'Running' : 'Pending', reasons: [], metrics };
  }
  // Only dry-run metrics: Argo counts the run Successful.
  return { phase: worst ?? 'Successful', reasons, metrics };
}

/** A non-dry-run metric that ended Failed, Error or Inconclusive ends the whole run early (Argo's IsTerminating). */
export function isTerminating(spec: AnalysisSpec, record: AnalysisRecord): boolean {
  return spec.metrics.some((m) => {
    if (m.dryRun) return false;
    const phase = assessMetric(m, metricRecord(record, m.name), false).phase;
    return phase === 'Failed' || phase === 'Error' || phase === 'Inconclusive';
  });
}

/** Argo's assessMetricStatus: limits first, then consecutiveSuccessLimit, then count. */
export function assessMetric(metric: MetricSpec, r: MetricRecord, terminating: boolean): MetricVerdict {
  const base = { name: metric.name, dryRun: metric.dryRun };
  if (r.measurements.length === 0 && r.count + r.error === 0)
    return { ...base, phase: terminating ? 'Successful' : 'Pending' };
  const limit = limitBreached(metric, r);
  if (limit) return { ...base, ...limit };
  const successLimit = metric.consecutiveSuccessLimit;
  if (successLimit > 0 && r.consecutiveSuccess >= successLimit) return { ...base, phase: 'Successful' };
  const effective = effectiveCount(metric);
  if (effective !== undefined && r.count >= effective) {
    if (successLimit > 0) {
      const message = `consecutiveSuccessLimit (${successLimit}) not reached`;
      return { ...base, phase: metric.failureLimit >= 0 ? 'Inconclusive' : 'Failed', message };
    }
    return { ...base, phase: 'Successful' };
  }
  return { ...base, phase: terminating ? 'Successful' : 'Running' };
}

/** Argo's assessMetricFailureInconclusiveOrError: the last breached limit wins (error over inconclusive over failed). */
function limitBreached(metric: MetricSpec, r: MetricRecord): { phase: AnalysisPhase; message: string } | undefined {
  let found: { phase: AnalysisPhase; message: string } | undefined;
  if (metric.failureLimit >= 0 && r.failed > metric.failureLimit)
    found = { phase: 'Failed', message: `failed (${r.failed}) > failureLimit (${metric.failureLimit})` };
  if (r.inconclusive > metric.inconclusiveLimit)
    found = {
      phase: 'Inconclusive',
      message: `inconclusive (${r.inconclusive}) > inconclusiveLimit (${metric.inconclusiveLimit})`,
    };
  if (r.consecutiveError > metric.consecutiveErrorLimit) {
    const last = r.measurements[r.measurements.length - 1]?.message;
    found = {
      phase: 'Error',
      message: `consecutiveErrors (${r.consecutiveError}) > consecutiveErrorLimit (${metric.consecutiveErrorLimit})${last ? `: ${last}` : ''}`,
    };
  }
  return found;
}

/** Argo's EffectiveCount: no count and no interval = 1; an interval alone = until stopped (undefined). */
export function effectiveCount(metric: MetricSpec): number | undefined {
  if (metric.count === undefined || metric.count === 0) return metric.interval === undefined ? 1 : undefined;
  return metric.count;
}
