import { GraphiteProvider } from '../../analysis/types';
import { request } from './http';
import { ProviderResult } from './prometheus';

/**
 * Argo's Graphite provider: GET `<address>/render?<query>&format=json` (whitespace removed from the
 * query); the first target's non-null datapoint values are the result, an array. No datapoint is an Error.
 */
export async function queryGraphite(
  spec: GraphiteProvider,
  fill: (text: string) => string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProviderResult> {
  const params = new URLSearchParams(fill(spec.query).replace(/\s+/g, ''));
  params.set('format', 'json');
  params.sort();
  const address = fill(spec.address).replace(/\/+$/, '');
  const res = await request({
    url: `${address}/render?${params}`,
    method: 'GET',
    headers: {},
    insecure: false,
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  if (res.status >= 400) throw new Error(`error response: ${res.body}`);
  let targets: { datapoints?: unknown[][] }[];
  try {
    targets = JSON.parse(res.body);
  } catch (e) {
    throw new Error(`Graphite answered a body that is not JSON: ${(e as Error).message}`);
  }
  const points = Array.isArray(targets) ? (targets[0]?.datapoints ?? []) : [];
  if (points.length === 0) throw new Error('no values found');
  const values = points.map((p) => value(p)).filter((v): v is number => v !== undefined);
  // Argo prints each value with %f: six decimals.
  return { result: values, text: `[${values.map((v) => v.toFixed(6)).join(',')}]` };
}

function value(point: unknown[]): number | undefined {
  if (!Array.isArray(point) || point.length !== 2)
    throw new Error(`error unmarshaling data point: ${JSON.stringify(point)}`);
  const v = point[0];
  if (v === null) return undefined;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || Number.isNaN(n)) throw new Error(`error unmarshaling value: ${JSON.stringify(v)}`);
  return n;
}
