import { AnalysisRecordError } from '../errors';
import { isObject } from '../model/kube';
import {
  AnalysisRecord,
  AnalysisSpec,
  MEASUREMENT_HISTORY,
  Measurement,
  MeasurementPhase,
  MetricRecord,
  RECORD_VERSION,
} from './types';

export { RECORD_VERSION };

const PHASES: readonly MeasurementPhase[] = ['Successful', 'Failed', 'Inconclusive', 'Error'];

/** A run that has taken no measurement yet; `now` starts the clock of every metric's initialDelay. */
export function newRecord(spec: AnalysisSpec, key: string, now: Date): AnalysisRecord {
  return {
    version: RECORD_VERSION,
    key,
    startedAt: now.toISOString(),
    metrics: spec.metrics.map((m) => empty(m.name)),
  };
}

function empty(name: string): MetricRecord {
  return {
    name,
    count: 0,
    successful: 0,
    failed: 0,
    inconclusive: 0,
    error: 0,
    consecutiveError: 0,
    consecutiveSuccess: 0,
    measurements: [],
  };
}

export function metricRecord(record: AnalysisRecord, name: string): MetricRecord {
  return record.metrics.find((m) => m.name === name) ?? empty(name);
}

/** The record with one more measurement of `metric`, counted as Argo counts it (an Error is not a count). Pure. */
export function apply(spec: AnalysisSpec, record: AnalysisRecord, metric: string, m: Measurement): AnalysisRecord {
  if (!spec.metrics.some((s) => s.name === metric))
    throw new AnalysisRecordError(
      `analysis has no metric "${metric}" (metrics: ${spec.metrics.map((s) => s.name).join(', ')})`,
    );
  const before = metricRecord(record, metric);
  const after = count(before, m.phase);
  const updated: MetricRecord = { ...after, measurements: [...before.measurements, m].slice(-MEASUREMENT_HISTORY) };
  const others = record.metrics.filter((r) => r.name !== metric);
  // Keep the spec's metric order so the record's bytes do not depend on measurement order.
  const order = spec.metrics.map((s) => s.name);
  const metrics = [...others, updated].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  return { ...record, metrics };
}

function count(r: MetricRecord, phase: MeasurementPhase): MetricRecord {
  switch (phase) {
    case 'Successful':
      return {
        ...r,
        count: r.count + 1,
        successful: r.successful + 1,
        consecutiveError: 0,
        consecutiveSuccess: r.consecutiveSuccess + 1,
      };
    case 'Failed':
      return { ...r, count: r.count + 1, failed: r.failed + 1, consecutiveError: 0, consecutiveSuccess: 0 };
    case 'Inconclusive':
      return { ...r, count: r.count + 1, inconclusive: r.inconclusive + 1, consecutiveError: 0, consecutiveSuccess: 0 };
    case 'Error':
      return { ...r, error: r.error + 1, consecutiveError: r.consecutiveError + 1, consecutiveSuccess: 0 };
  }
}

/** Reads a stored record back (parsed JSON), checking every field; throws AnalysisRecordError naming the first problem. */
export function readRecord(value: unknown): AnalysisRecord {
  const fail = (what: string): never => {
    throw new AnalysisRecordError(`stored analysis record is invalid: ${what}`);
  };
  if (!isObject(value)) return fail('not an object');
  if (value.version !== RECORD_VERSION) return fail(`version ${String(value.version)}, expected ${RECORD_VERSION}`);
  if (typeof value.key !== 'string') return fail('key is not a string');
  if (!isTime(value.startedAt)) return fail('startedAt is not an ISO time');
  if (!Array.isArray(value.metrics)) return fail('metrics is not a list');
  const metrics = value.metrics.map((m, i) => readMetric(m, `metrics[${i}]`, fail));
  if (new Set(metrics.map((m) => m.name)).size !== metrics.length) fail('a metric appears twice');
  return { version: RECORD_VERSION, key: value.key, startedAt: value.startedAt as string, metrics };
}

const COUNTERS = [
  'count',
  'successful',
  'failed',
  'inconclusive',
  'error',
  'consecutiveError',
  'consecutiveSuccess',
] as const;

function readMetric(v: unknown, at: string, fail: (what: string) => never): MetricRecord {
  if (!isObject(v) || typeof v.name !== 'string') return fail(`${at} has no name`);
  for (const c of COUNTERS)
    if (!Number.isInteger(v[c]) || (v[c] as number) < 0) fail(`${at}.${c} is not a non-negative integer`);
  const r = v as unknown as MetricRecord;
  if (r.count !== r.successful + r.failed + r.inconclusive) fail(`${at}.count does not add up`);
  if (!Array.isArray(v.measurements) || v.measurements.length > MEASUREMENT_HISTORY)
    fail(`${at}.measurements is not a list of at most ${MEASUREMENT_HISTORY}`);
  const measurements = (v.measurements as unknown[]).map((m, i) =>
    readMeasurement(m, `${at}.measurements[${i}]`, fail),
  );
  if (measurements.length > r.count + r.error) fail(`${at} has more measurements than its counters`);
  const counters = Object.fromEntries(COUNTERS.map((c) => [c, r[c]])) as Omit<MetricRecord, 'name' | 'measurements'>;
  return { ...counters, name: r.name, measurements };
}

function readMeasurement(v: unknown, at: string, fail: (what: string) => never): Measurement {
  if (!isObject(v)) return fail(`${at} is not an object`);
  if (!isTime(v.startedAt) || !isTime(v.finishedAt)) fail(`${at} has no startedAt/finishedAt ISO time`);
  if (!PHASES.includes(v.phase as MeasurementPhase)) fail(`${at}.phase is not one of ${PHASES.join(', ')}`);
  for (const k of ['value', 'message'] as const)
    if (v[k] !== undefined && typeof v[k] !== 'string') fail(`${at}.${k} is not a string`);
  return {
    startedAt: v.startedAt as string,
    finishedAt: v.finishedAt as string,
    phase: v.phase as MeasurementPhase,
    ...(typeof v.value === 'string' ? { value: v.value } : {}),
    ...(typeof v.message === 'string' ? { message: v.message } : {}),
  };
}

function isTime(v: unknown): boolean {
  return typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && !Number.isNaN(Date.parse(v));
}
