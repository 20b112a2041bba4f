import { measure } from '../../../src/io/metrics/measure';
import { credentialsOf } from '../../../src/analysis/credentials';
import { InfluxDbProvider } from '../../../src/analysis/types';
import { condition, metricSpec } from '../../helpers/analysis';
import { VendorServer, rollgenWith, startVendor } from '../../helpers/vendor-server';

const TOKEN = 'influx-token-0123456789==';

/** InfluxDB's /api/v2/query answer: annotated CSV, one row per record, `_value` typed by #datatype. */
function csv(values: number[]): { text: string; type: string } {
  const rows = values.map(
    (v, i) => `,,0,2026-03-01T11:45:00Z,2026-03-01T12:00:00Z,2026-03-01T11:5${i}:00Z,${v},value,errors`,
  );
  return {
    type: 'text/csv; charset=utf-8',
    text: [
      '#datatype,string,long,dateTime:RFC3339,dateTime:RFC3339,dateTime:RFC3339,double,string,string',
      '#group,false,false,true,true,false,false,true,true',
      '#default,_result,,,,,,,',
      ',result,table,_start,_stop,_time,_value,_field,_measurement',
      ...rows,
      '',
    ].join('\r\n'),
  };
}

let influx: VendorServer;
beforeAll(async () => {
  influx = await startVendor(() => csv([]));
});
afterAll(() => influx.close());
beforeEach(() => influx.seen.splice(0));

const FLUX = `from(bucket: "app_istio")
  |> range(start: -15m)
  |> filter(fn: (r) => r["destination_workload"] == "checkout")`;

function metric(success: string, profile = 'influxdb') {
  const provider: InfluxDbProvider = {
    kind: 'influxdb',
    query: FLUX,
    timeoutSeconds: 5,
    credentials: credentialsOf(profile, [
      { key: 'address', required: true, secret: false },
      { key: 'authToken', required: true, secret: true },
      { key: 'org', required: true, secret: false },
    ]),
    secretArgs: [],
  };
  return metricSpec({ provider, successCondition: condition(success) });
}

const env = () => ({
  ROLLGEN_SECRET_INFLUXDB_ADDRESS: influx.url,
  ROLLGEN_SECRET_INFLUXDB_AUTHTOKEN: TOKEN,
  ROLLGEN_SECRET_INFLUXDB_ORG: 'platform',
});

describe("InfluxDB through InfluxData's client against a loopback /api/v2/query", () => {
  test('the Flux query as the client sends it; the records _value as an array', async () => {
    influx.answer = () => csv([0, 0.5]);
    expect(await measure(metric('result[0] == 0'), { env: env() })).toMatchObject({
      phase: 'Successful',
      value: '[0 0.5]',
    });
    const [req] = influx.seen;
    expect([req.method, req.url, req.headers.authorization]).toEqual([
      'POST',
      '/api/v2/query?org=platform',
      `Token ${TOKEN}`,
    ]);
    expect(JSON.parse(req.body)).toMatchObject({ query: FLUX, type: 'flux' });
    expect(await measure(metric('all(result, {# == 0})'), { env: env() })).toMatchObject({ phase: 'Failed' });
  });

  test('no record is an Error; a refused token is an Error without the token', async () => {
    influx.answer = () => csv([]);
    expect(await measure(metric('result[0] == 0'), { env: env() })).toMatchObject({
      phase: 'Error',
      message: 'no results returned from flux query',
    });
    influx.answer = (r) => ({
      status: 401,
      json: { code: 'unauthorized', message: `unauthorized access for ${r.headers.authorization}` },
    });
    const x = await measure(metric('result[0] == 0'), { env: env() });
    expect(x.phase).toBe('Error');
    expect(x.message).toContain('unauthorized access for Token *****');
  });
});

describe('rollgen analyze measures the InfluxDB example against the loopback API', () => {
  test('zero errors pass step 1; errors fail it (exit 1)', async () => {
    influx.answer = () => csv([0]);
    const args = ['analyze', 'examples/argo-analysis/influxdb', '--step', '1', '--no-wait'];
    const ok = await rollgenWith(args, env());
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/error-rate \(influxdb\): Successful/);
    expect(influx.seen).toHaveLength(3);
    expect(JSON.parse(influx.seen[0].body).query).toContain('r["destination_workload"] == "checkout"');
    influx.answer = () => csv([2.5]);
    const bad = await rollgenWith(args, env());
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/error-rate \(influxdb\): Failed/);
    expect(bad.stdout + bad.stderr).not.toContain(TOKEN);
  });
});
