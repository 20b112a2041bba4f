import { Value } from '../../analysis/builtins';
import type { MeasurementPhase } from '../../analysis/types';
import { formatSample } from '../../analysis/value-text';
import { request } from './http';
import type { OutgoingRequest } from './auth';

export interface PrometheusQuery {
  readonly address: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly insecure: boolean;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Set: a range query (`/api/v1/query_range`) over these instants, Argo's rangeQuery evaluated against the clock. */
  readonly range?: { readonly start: Date; readonly end: Date; readonly stepSeconds: number };
  /** The request's final headers: authentication (src/io/metrics/auth.ts) signs or adds a token. */
  readonly authorize?: (req: OutgoingRequest) => Promise<Record<string, string>>;
}

/** What a measurement yields: the value for conditions and its text as Argo prints it (value-text.ts). */
export interface ProviderResult {
  readonly result: Value;
  readonly text: string;
  /** A judge's own phase (Kayenta's score against its thresholds): no condition is evaluated. */
  readonly phase?: MeasurementPhase;
}

/**
 * An instant query at the current time (`/api/v1/query`), or a range query (`/api/v1/query_range`), shaped
 * as Argo shapes it: a vector or a matrix becomes an array of sample values (a matrix's series after
 * one another, each in time order; empty when nothing matched), a scalar a number.
 */
export async function queryPrometheus(q: PrometheusQuery): Promise<ProviderResult> {
  const url = `${q.address.replace(/\/+$/, '')}/api/v1/${q.range ? 'query_range' : 'query'}`;
  const body = new URLSearchParams({ query: q.query, ...(q.range ? rangeParams(q.range) : {}) }).toString();
  const plain = { ...q.headers, 'content-type': 'application/x-www-form-urlencoded' };
  const headers = q.authorize ? await q.authorize({ url, method: 'POST', headers: plain, body }) : plain;
  const res = await request({
    url,
    method: 'POST',
    headers,
    body,
    insecure: q.insecure,
    timeoutMs: q.timeoutMs,
    ...(q.signal ? { signal: q.signal } : {}),
  });
  let payload: { status?: string; error?: string; data?: { resultType?: string; result?: unknown } };
  try {
    payload = JSON.parse(res.body);
  } catch {
    throw new Error(`Prometheus at ${q.address} answered HTTP ${res.status} with a body that is not JSON`);
  }
  if (res.status < 200 || res.status >= 300 || payload.status !== 'success')
    throw new Error(`Prometheus at ${q.address} answered HTTP ${res.status}: ${payload.error ?? 'no error message'}`);
  return shape(payload.data?.resultType, payload.data?.result);
}

/** As Prometheus' Go client sends them: Unix seconds (with milliseconds) and the step in seconds. */
function rangeParams(r: NonNullable<PrometheusQuery['range']>): Record<string, string> {
  return { start: String(r.start.getTime() / 1000), end: String(r.end.getTime() / 1000), step: String(r.stepSeconds) };
}

function shape(type: string | undefined, result: unknown): ProviderResult {
  if (type === 'scalar') {
    const v = sample((result as unknown[])[1]);
    return { result: v, text: formatSample(v) };
  }
  if (type === 'vector') {
    const values = (result as { value: unknown[] }[]).map((s) => sample(s.value[1]));
    return { result: values, text: `[${values.map(formatSample).join(',')}]` };
  }
  if (type === 'matrix') {
    const values = (result as { values: unknown[][] }[]).flatMap((s) => s.values.map((p) => sample(p[1])));
    return { result: values, text: `[${values.map(formatSample).join(',')}]` };
  }
  throw new Error(`Prometheus metric type not supported: ${type ?? 'none'}`);
}

/** Prometheus writes samples as strings, with NaN and ±Inf spelled out. */
function sample(v: unknown): number {
  if (v === '+Inf' || v === 'Inf') return Infinity;
  if (v === '-Inf') return -Infinity;
  return Number(v);
}
