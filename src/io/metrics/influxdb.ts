import { Value } from '../../analysis/builtins';
import { InfluxDbProvider } from '../../analysis/types';
import { ProviderResult } from './prometheus';

export interface InfluxDbQuery {
  readonly spec: InfluxDbProvider;
  readonly fill: (text: string) => string;
  readonly credentials: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
}

/**
 * Argo's InfluxDB provider, through InfluxData's client: the Flux query's records' `_value`s, in
 * order, are the result (an array); no record is an Error. Argo prints them as Go's fmt.Sprint: `[1 2]`.
 */
export async function queryInfluxDb(q: InfluxDbQuery): Promise<ProviderResult> {
  const { InfluxDB } = influxClient();
  const c = q.credentials;
  const client = new InfluxDB({ url: c.address ?? '', token: c.authToken ?? '', timeout: q.timeoutMs });
  const rows = await client.getQueryApi(c.org ?? '').collectRows<{ _value?: Value }>(q.fill(q.spec.query));
  const values = rows.map((r) => r._value ?? null);
  if (values.length === 0) throw new Error('no results returned from flux query');
  return { result: values, text: `[${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' ')}]` };
}

/** InfluxData's client, required on the first InfluxDB measurement (dist/vendor/influxdb.js): never at start-up. */
function influxClient(): typeof import('@influxdata/influxdb-client') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@influxdata/influxdb-client') as typeof import('@influxdata/influxdb-client');
}
