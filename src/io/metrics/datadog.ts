import { Value } from '../../analysis/builtins';
import { DatadogProvider } from '../../analysis/types';
import { request } from './http';
import { ProviderResult } from './prometheus';

/** Argo's default when the Secret has no `address`. */
const DEFAULT_ADDRESS = 'https://api.datadoghq.com';

export interface DatadogQuery {
  readonly spec: DatadogProvider;
  /** The spec's queries with secret args filled in. */
  readonly fill: (text: string) => string;
  readonly credentials: Readonly<Record<string, string | undefined>>;
  readonly now: Date;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Argo's Datadog provider: v1 `GET /api/v1/query` (the last point of the first series, a number) or
 * v2 `POST /api/v2/query/scalar` (a number, or an array when grouped `by {tag}`); no data -> nil.
 */
export async function queryDatadog(q: DatadogQuery): Promise<ProviderResult> {
  const s = q.spec;
  const address = (q.credentials.address ?? DEFAULT_ADDRESS).replace(/\/+$/, '');
  const to = Math.floor(q.now.getTime() / 1000);
  const from = to - Math.floor(s.intervalSeconds);
  const headers = {
    'Content-Type': 'application/json',
    'DD-API-KEY': q.credentials['api-key'] ?? '',
    'DD-APPLICATION-KEY': q.credentials['app-key'] ?? '',
  };
  const common = { headers, insecure: false, timeoutMs: q.timeoutMs, ...(q.signal ? { signal: q.signal } : {}) };
  if (s.apiVersion === 'v1') {
    const params = new URLSearchParams({ query: q.fill(s.query ?? ''), from: String(from), to: String(to) });
    const res = await request({ ...common, url: `${address}/api/v1/query?${params}`, method: 'GET' });
    return shapeV1(checked(res.status, res.body));
  }
  const queries = s.queries ?? { query: s.query ?? '' };
  const body = {
    data: {
      type: 'scalar_request',
      attributes: {
        from: from * 1000,
        to: to * 1000,
        queries: Object.entries(queries).map(([name, query]) => ({
          aggregator: s.aggregator ?? 'last',
          data_source: 'metrics',
          name,
          query: q.fill(query),
        })),
        formulas: s.formula !== undefined ? [{ formula: q.fill(s.formula) }] : [],
      },
    },
  };
  const res = await request({
    ...common,
    url: `${address}/api/v2/query/scalar`,
    method: 'POST',
    body: JSON.stringify(body),
  });
  return shapeV2(checked(res.status, res.body));
}

function checked(status: number, body: string): unknown {
  if (status === 401 || status === 403)
    throw new Error(`received authentication error response code: ${status} ${body}`);
  if (status !== 200) throw new Error(`received non 2xx response code: ${status} ${body}`);
  try {
    return JSON.parse(body);
  } catch (e) {
    throw new Error(`Could not parse JSON body: ${(e as Error).message}`);
  }
}

function shapeV1(payload: unknown): ProviderResult {
  const series = (payload as { series?: { pointlist?: (number | null)[][] }[] | null }).series;
  const first = series?.[0]?.pointlist;
  if (!series || series.length === 0 || !first || first.length === 0)
    return { result: null, text: JSON.stringify(series ?? null) };
  const point = first[first.length - 1];
  if (point.length !== 2) throw new Error('Datapoint does not have 2 values');
  const value = Number(point[1]);
  return { result: value, text: String(value) };
}

interface Column {
  readonly name?: string;
  readonly type?: string;
  readonly values?: unknown[];
}

function shapeV2(payload: unknown): ProviderResult {
  const data = (payload as { data?: { attributes?: { columns?: Column[] }; errors?: string } }).data;
  if (data?.errors) throw new Error(`There were errors in your query: ${data.errors}`);
  const columns = data?.attributes?.columns ?? [];
  const numbers = columns.find((c) => c.type === undefined || c.type === '' || c.type === 'number');
  const grouped = columns.some((c) => c.type === 'group');
  const values: number[] = [];
  for (const v of numbers?.values ?? []) {
    if (v === null) continue; // Datadog's "no data for this group"
    if (typeof v !== 'number')
      throw new Error(`could not parse numeric value ${JSON.stringify(v)} in column "${numbers!.name}"`);
    values.push(v);
  }
  if (values.length === 0) return { result: null, text: '[]' };
  if (!grouped) return { result: values[0], text: String(values[0]) };
  return { result: values as Value, text: `[${values.join(',')}]` };
}
