import { metricRecord } from './record';
import { AnalysisRecord, AnalysisSpec, Due } from './types';
import { assessMetric, effectiveCount, isCompleted, isTerminating } from './verdict';

/** Argo retries a measurement that ended in Error after 10 s, whatever the interval. */
export const ERROR_RETRY_SECONDS = 10;

/** Argo's generateMetricTasks + calculateNextReconcileTime: which metrics to measure at `now`, and when the next falls due. Pure. */
export function due(spec: AnalysisSpec, record: AnalysisRecord, now: Date): Due {
  if (isTerminating(spec, record)) return { metrics: [] };
  const started = Date.parse(record.startedAt);
  const metrics: string[] = [];
  let next: number | undefined;
  for (const metric of spec.metrics) {
    const r = metricRecord(record, metric.name);
    if (isCompleted(assessMetric(metric, r, false).phase)) continue;
    const at = dueAt(metric, r, started);
    if (at === undefined) continue;
    if (at <= now.getTime()) metrics.push(metric.name);
    else next = next === undefined ? at : Math.min(next, at);
  }
  return { metrics, ...(next !== undefined ? { next: isoAt(next, now) } : {}) };
}

function dueAt(
  metric: AnalysisSpec['metrics'][number],
  r: ReturnType<typeof metricRecord>,
  started: number,
): number | undefined {
  const last = r.measurements[r.measurements.length - 1];
  if (!last) return started + (metric.initialDelay ?? 0) * 1000;
  const effective = effectiveCount(metric);
  if (effective !== undefined && r.count >= effective) return undefined;
  const wait = last.phase === 'Error' ? ERROR_RETRY_SECONDS : (metric.interval ?? ERROR_RETRY_SECONDS);
  return Date.parse(last.finishedAt) + wait * 1000;
}

/** Epoch milliseconds as ISO text, via a copy of the given time: the core never makes a Date of its own. */
function isoAt(ms: number, like: Date): string {
  const d = structuredClone(like);
  d.setTime(ms);
  return d.toISOString();
}
