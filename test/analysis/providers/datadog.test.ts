import { measure } from '../../../src/io/metrics/measure';
import { credentialsOf } from '../../../src/analysis/credentials';
import { DatadogProvider } from '../../../src/analysis/types';
import { condition, metricSpec } from '../../helpers/analysis';
import { Seen, VendorServer, rollgenWith, startVendor } from '../../helpers/vendor-server';

const KEYS = { DD_API_KEY: 'dd-api-0123456789', DD_APP_KEY: 'dd-app-9876543210' };
const NOW = new Date('2026-03-01T12:00:00Z');
const T = NOW.getTime() / 1000;

/** Datadog's v2 scalar answer (POST /api/v2/query/scalar): one number column per formula, group columns for `by {tag}`. */
const scalar = (columns: unknown[]) => ({ json: { data: { type: 'scalar_response', attributes: { columns } } } });
const number = (values: (number | null)[]) => ({ name: 'a', type: 'number', values, meta: { unit: null } });

/** The v1 answer (GET /api/v1/query): series of [timestamp ms, value] points. */
const series = (points: number[][]) => ({
  json: { status: 'ok', series: points.length ? [{ pointlist: points }] : [] },
});

let dd: VendorServer;
beforeAll(async () => {
  dd = await startVendor(() => ({ status: 404, json: { errors: ['no route'] } }));
});
afterAll(() => dd.close());
beforeEach(() => dd.seen.splice(0));

function metric(over: Partial<DatadogProvider>, success: string) {
  const provider: DatadogProvider = {
    kind: 'datadog',
    apiVersion: 'v2',
    intervalSeconds: 300,
    timeoutSeconds: 5,
    credentials: credentialsOf(
      'datadog',
      ['api-key', 'app-key', 'address'].map((key) => ({
        key,
        required: key !== 'address',
        secret: key !== 'address',
        before: [`DD_${key.toUpperCase().replace('-', '_')}`],
      })),
    ),
    secretArgs: [],
    ...over,
  };
  return metricSpec({ provider, successCondition: condition(success) });
}

const env = () => ({ ...KEYS, DD_ADDRESS: dd.url });
const take = (m: ReturnType<typeof metric>) => measure(m, { env: env(), now: () => NOW });

describe('Datadog against a loopback API speaking its v1 and v2 query endpoints', () => {
  test('v2 queries with a formula: the request Argo sends, the number column as the result', async () => {
    dd.answer = () => scalar([number([0.02])]);
    const m = metric(
      {
        queries: {
          a: 'sum:requests.error.rate{service:checkout}.as_count()',
          b: 'sum:requests.request.rate{service:checkout}.as_count()',
        },
        formula: 'a / b',
      },
      'default(result, 0) < 0.05',
    );
    expect(await take(m)).toMatchObject({ phase: 'Successful', value: '0.02' });
    const [req] = dd.seen;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/v2/query/scalar');
    expect(req.headers['dd-api-key']).toBe(KEYS.DD_API_KEY);
    expect(req.headers['dd-application-key']).toBe(KEYS.DD_APP_KEY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({
      data: {
        type: 'scalar_request',
        attributes: {
          from: (T - 300) * 1000,
          to: T * 1000,
          queries: [
            {
              aggregator: 'last',
              data_source: 'metrics',
              name: 'a',
              query: 'sum:requests.error.rate{service:checkout}.as_count()',
            },
            {
              aggregator: 'last',
              data_source: 'metrics',
              name: 'b',
              query: 'sum:requests.request.rate{service:checkout}.as_count()',
            },
          ],
          formulas: [{ formula: 'a / b' }],
        },
      },
    });
  });

  test('v2: a grouped query (by {tag}) is an array without the no-data groups; no data at all is nil', async () => {
    dd.answer = () =>
      scalar([{ name: 'service', type: 'group', values: [['a'], ['b'], ['c']] }, number([0.01, null, 0.2])]);
    const m = metric({ query: 'avg:errors{*} by {service}', aggregator: 'avg' }, 'all(result, {# < 0.1})');
    expect(await take(m)).toMatchObject({ phase: 'Failed', value: '[0.01,0.2]' });
    expect(JSON.parse(dd.seen[0].body).data.attributes.queries).toEqual([
      { aggregator: 'avg', data_source: 'metrics', name: 'query', query: 'avg:errors{*} by {service}' },
    ]);
    dd.answer = () => scalar([number([])]);
    expect(await take(metric({ query: 'avg:errors{*}' }, 'default(result, 0) < 0.05'))).toMatchObject({
      phase: 'Successful',
      value: '[]',
    });
    dd.answer = () => ({ json: { data: { errors: 'bad query syntax' } } });
    expect(await take(metric({ query: 'avg:' }, 'result < 1'))).toMatchObject({
      phase: 'Error',
      message: 'There were errors in your query: bad query syntax',
    });
  });

  test('v1: GET /api/v1/query over the interval; the last point of the first series', async () => {
    dd.answer = () =>
      series([
        [(T - 60) * 1000, 0.3],
        [T * 1000, 0.7],
      ]);
    const m = metric(
      { apiVersion: 'v1', query: 'avg:latency{service:checkout}', intervalSeconds: 600 },
      'result <= 0.5',
    );
    expect(await take(m)).toMatchObject({ phase: 'Failed', value: '0.7' });
    const url = new URL(dd.seen[0].url, dd.url);
    expect([dd.seen[0].method, url.pathname]).toEqual(['GET', '/api/v1/query']);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      query: 'avg:latency{service:checkout}',
      from: String(T - 600),
      to: String(T),
    });
    dd.answer = () => series([]);
    expect(await take(m)).toMatchObject({ phase: 'Error', value: '[]' });
  });

  test('a refused key is an Error naming the status; the keys never reach the record', async () => {
    dd.answer = (r: Seen) => ({ status: 403, json: { errors: [`Forbidden for key ${r.headers['dd-api-key']}`] } });
    const x = await take(metric({ query: 'avg:errors{*}' }, 'result < 1'));
    expect(x.phase).toBe('Error');
    expect(x.message).toBe('received authentication error response code: 403 {"errors":["Forbidden for key *****"]}');
  });

  test('a redirect to another host is followed as Go follows it, without the keys', async () => {
    const elsewhere = await startVendor(() => scalar([number([0.01])]));
    try {
      const otherHost = elsewhere.url.replace('127.0.0.1', 'localhost');
      dd.answer = () => ({ status: 307, json: {}, location: `${otherHost}/api/v2/query/scalar` });
      await take(metric({ query: 'avg:errors{*}' }, 'result < 1'));
      expect(elsewhere.seen).toHaveLength(1);
      expect(elsewhere.seen[0].headers['dd-api-key']).toBeUndefined();
      expect(elsewhere.seen[0].headers['dd-application-key']).toBeUndefined();
      expect(JSON.stringify(elsewhere.seen[0])).not.toContain(KEYS.DD_API_KEY);
      expect(JSON.stringify(elsewhere.seen[0])).not.toContain(KEYS.DD_APP_KEY);
    } finally {
      await elsewhere.close();
    }
  });

  test('without the keys nothing is sent and the variables to set are named', async () => {
    const x = await measure(metric({ query: 'avg:errors{*}' }, 'result < 1'), { env: { DD_ADDRESS: dd.url } });
    expect(x).toMatchObject({
      phase: 'Error',
      message:
        'credentials of Secret "datadog" not found: api-key (set DD_API_KEY or ROLLGEN_SECRET_DATADOG_API_KEY), app-key (set DD_APP_KEY or ROLLGEN_SECRET_DATADOG_APP_KEY); name other variables in rollgen.yaml metricSecrets.datadog',
    });
    expect(dd.seen).toEqual([]);
  });
});

describe('rollgen analyze measures the Datadog example against the loopback API', () => {
  test('healthy numbers pass both analyses of step 1; a high error rate fails it (exit 1)', async () => {
    dd.answer = (r) => (r.url.startsWith('/api/v2') ? scalar([number([0.01])]) : series([[T * 1000, 0.2]]));
    const ok = await rollgenWith(['analyze', 'examples/argo-analysis/datadog', '--step', '1', '--no-wait'], env());
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/error-rate \(datadog\): Successful/);
    expect(ok.stdout).toMatch(/p95-latency \(datadog\): Successful/);
    expect(dd.seen.map((s) => `${s.method} ${s.url.split('?')[0]}`).sort()).toEqual([
      ...Array(2).fill('GET /api/v1/query'),
      ...Array(3).fill('POST /api/v2/query/scalar'),
    ]);
    expect(JSON.parse(dd.seen.find((s) => s.method === 'POST')!.body).data.attributes.queries[0].query).toBe(
      'sum:requests.error.rate{service:checkout}.as_count()',
    );
    dd.answer = (r) => (r.url.startsWith('/api/v2') ? scalar([number([0.3])]) : series([[T * 1000, 0.2]]));
    const bad = await rollgenWith(['analyze', 'examples/argo-analysis/datadog', '--step', '1', '--no-wait'], env());
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/error-rate \(datadog\): Failed/);
    expect(bad.stdout + bad.stderr).not.toContain(KEYS.DD_API_KEY);
  });
});
