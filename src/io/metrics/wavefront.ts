import { WavefrontProvider } from '../../analysis/types';
import { request } from './http';
import { ProviderResult } from './prometheus';

export interface WavefrontQuery {
  readonly spec: WavefrontProvider;
  readonly fill: (text: string) => string;
  readonly token: string;
  readonly now: Date;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Argo's Wavefront provider: the chart API at the time of the measurement (one point per second,
 * series outside the window included); each series' point nearest that time is its value. One
 * series is a number, several an array; none is an Error.
 */
export async function queryWavefront(q: WavefrontQuery): Promise<ProviderResult> {
  const at = Math.floor(q.now.getTime() / 1000);
  const params = new URLSearchParams({
    q: q.fill(q.spec.query),
    s: String(at * 1000),
    e: String(at * 1000),
    g: 's',
    p: '1',
    i: 'true',
  });
  const base = /^https?:\/\//.test(q.spec.address) ? q.spec.address : `https://${q.spec.address}`;
  const res = await request({
    url: `${base.replace(/\/+$/, '')}/api/v2/chart/api?${params}`,
    method: 'GET',
    headers: { Authorization: `Bearer ${q.token}`, Accept: 'application/json' },
    insecure: false,
    timeoutMs: q.timeoutMs,
    ...(q.signal ? { signal: q.signal } : {}),
  });
  if (res.status < 200 || res.status >= 300) throw new Error(`Wavefront answered HTTP ${res.status}: ${res.body}`);
  let payload: { timeseries?: { data?: number[][] }[] };
  try {
    payload = JSON.parse(res.body);
  } catch {
    throw new Error(`Wavefront answered HTTP ${res.status} with a body that is not JSON`);
  }
  const series = payload.timeseries ?? [];
  if (series.length === 0) throw new Error('No TimeSeries found in response from Wavefront');
  const values = series.map((s) => nearest(s.data ?? [], at));
  if (values.length === 1) return { result: values[0], text: values[0].toFixed(2) };
  return { result: values, text: `[${values.map((v) => v.toFixed(2)).join(',')}]` };
}

/** The value of the point closest in time to `at` (0 when the series has none, as in Argo). */
function nearest(points: readonly number[][], at: number): number {
  let best = { value: 0, delta: Infinity };
  for (const [t, v] of points) if (Math.abs(t - at) < Math.abs(best.delta)) best = { value: v, delta: t - at };
  return best.value;
}
