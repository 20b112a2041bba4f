import { measure } from '../../../src/io/metrics/measure';
import { credentialsOf } from '../../../src/analysis/credentials';
import { condition, metricSpec } from '../../helpers/analysis';
import { VendorServer, exampleAt, rollgenWith, startVendor } from '../../helpers/vendor-server';

const TOKEN = 'wf-0123-4567-89ab';
const NOW = new Date('2026-03-01T12:00:00Z');
const T = NOW.getTime() / 1000;

/** Wavefront's chart API answer: timeseries with [epoch seconds, value] points. */
const charts = (...series: number[][][]) => ({
  json: {
    name: 'q',
    query: 'q',
    granularity: 1,
    timeseries: series.map((data) => ({ label: 'istio', host: 'h', tags: {}, data })),
  },
});

let wf: VendorServer;
beforeAll(async () => {
  wf = await startVendor(() => charts());
});
afterAll(() => wf.close());
beforeEach(() => wf.seen.splice(0));

function metric(success: string) {
  const address = wf.url;
  return metricSpec({
    successCondition: condition(success),
    provider: {
      kind: 'wavefront',
      address,
      query: 'sum(rate(5m, ts("istio.requestcount.count")))',
      timeoutSeconds: 5,
      credentials: credentialsOf('wavefront-api-tokens', [{ key: address, required: true, secret: true }], {
        'wavefront-api-tokens': { [address]: 'WAVEFRONT_TOKEN' },
      }),
      secretArgs: [],
    },
  });
}

describe('Wavefront against a loopback chart API', () => {
  test('GET /api/v2/chart/api at the measurement time with the token; the point nearest it is the value', async () => {
    wf.answer = () =>
      charts([
        [T - 120, 0.5],
        [T - 5, 0.97],
        [T - 60, 0.4],
      ]);
    expect(await measure(metric('result >= 0.95'), { env: { WAVEFRONT_TOKEN: TOKEN }, now: () => NOW })).toMatchObject({
      phase: 'Successful',
      value: '0.97',
    });
    const [req] = wf.seen;
    const url = new URL(req.url, wf.url);
    expect([req.method, url.pathname, req.headers.authorization]).toEqual([
      'GET',
      '/api/v2/chart/api',
      `Bearer ${TOKEN}`,
    ]);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'sum(rate(5m, ts("istio.requestcount.count")))',
      s: String(T * 1000),
      e: String(T * 1000),
      g: 's',
      p: '1',
      i: 'true',
    });
  });

  test('several series are an array; none is an Error; no token sends nothing', async () => {
    wf.answer = () => charts([[T, 0.99]], [[T, 0.2]]);
    expect(
      await measure(metric('all(result, {# >= 0.95})'), { env: { WAVEFRONT_TOKEN: TOKEN }, now: () => NOW }),
    ).toMatchObject({
      phase: 'Failed',
      value: '[0.99,0.20]',
    });
    wf.answer = () => charts();
    expect(await measure(metric('result >= 0.95'), { env: { WAVEFRONT_TOKEN: TOKEN } })).toMatchObject({
      phase: 'Error',
      message: 'No TimeSeries found in response from Wavefront',
    });
    wf.seen.splice(0);
    const none = await measure(metric('result >= 0.95'), { env: {} });
    expect(none.message).toMatch(
      /^credentials of Secret "wavefront-api-tokens" not found: http:\/\/127\.0\.0\.1:\d+ \(set WAVEFRONT_TOKEN\)/,
    );
    expect(wf.seen).toEqual([]);
  });
});

describe('rollgen analyze measures the Wavefront example against the loopback chart API', () => {
  test('the token from the default variable of the address key; pass, then fail (exit 1)', async () => {
    const dir = exampleAt('wavefront', /example\.wavefront\.com/, wf.url);
    const port = new URL(wf.url).port;
    const env = { [`ROLLGEN_SECRET_WAVEFRONT_API_TOKENS_HTTP___127_0_0_1_${port}`]: TOKEN };
    wf.answer = () => charts([[Math.floor(Date.now() / 1000), 0.98]]);
    const ok = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], env);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/success-rate \(wavefront\): Successful/);
    expect(wf.seen.map((r) => r.headers.authorization)).toEqual(Array(3).fill(`Bearer ${TOKEN}`));
    wf.answer = () => charts([[Math.floor(Date.now() / 1000), 0.5]]);
    const bad = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], env);
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).not.toContain(TOKEN);
  });
});
