import { measure } from '../../../src/io/metrics/measure';
import { condition, metricSpec } from '../../helpers/analysis';
import { VendorServer, exampleAt, rollgenWith, startVendor } from '../../helpers/vendor-server';

/** Graphite's render API answer (format=json): targets with [value, timestamp] datapoints, null for no data. */
const render = (points: (number | string | null)[]) => ({
  json: [{ target: 'summarize(asPercent(...))', tags: {}, datapoints: points.map((v, i) => [v, 1772366100 + 60 * i]) }],
});

let graphite: VendorServer;
beforeAll(async () => {
  graphite = await startVendor(() => ({ json: [] }));
});
afterAll(() => graphite.close());
beforeEach(() => graphite.seen.splice(0));

const metric = (query: string, success: string) =>
  metricSpec({
    successCondition: condition(success),
    provider: { kind: 'graphite', address: `${graphite.url}/graphite/`, query, timeoutSeconds: 5, secretArgs: [] },
  });

describe('Graphite against a loopback render API', () => {
  test("GET <address>/render with the query's parameters, whitespace removed, and format=json", async () => {
    graphite.answer = () => render([null, 97.5, '92']);
    const query =
      "target=summarize(\n  asPercent(sumSeries(a.*.ok), sumSeries(a.*.count)),\n  '5min',\n  'avg'\n)&from=-10min";
    expect(await measure(metric(query, 'result[0] >= 90'), { env: {} })).toMatchObject({
      phase: 'Successful',
      value: '[97.500000,92.000000]',
    });
    const url = new URL(graphite.seen[0].url, graphite.url);
    expect([graphite.seen[0].method, url.pathname]).toEqual(['GET', '/graphite/render']);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      target: "summarize(asPercent(sumSeries(a.*.ok),sumSeries(a.*.count)),'5min','avg')",
      from: '-10min',
      format: 'json',
    });
  });

  test('no target or no datapoint is an Error; an error status is its body', async () => {
    graphite.answer = () => ({ json: [] });
    expect(await measure(metric('target=a', 'result[0] >= 90'), { env: {} })).toMatchObject({
      phase: 'Error',
      message: 'no values found',
    });
    graphite.answer = () => ({ status: 400, json: { error: 'bad target' } });
    expect(await measure(metric('target=a(', 'true'), { env: {} })).toMatchObject({
      phase: 'Error',
      message: 'error response: {"error":"bad target"}',
    });
  });
});

describe('rollgen analyze measures the Graphite example against the loopback render API', () => {
  test('a 95% success rate passes step 1; 50% fails it (exit 1)', async () => {
    const dir = exampleAt('graphite', /http:\/\/graphite\.monitoring:8080/, graphite.url);
    graphite.answer = () => render([95]);
    const ok = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], {});
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/success-rate \(graphite\): Successful/);
    expect(graphite.seen).toHaveLength(3);
    expect(new URL(graphite.seen[0].url, graphite.url).searchParams.get('target')).toContain(
      'stats.timers.httpServerRequests.app.checkout.exception.*.method.*.outcome.{CLIENT_ERROR,INFORMATIONAL,REDIRECTION,SUCCESS}',
    );
    graphite.answer = () => render([50]);
    const bad = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], {});
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/success-rate \(graphite\): Failed/);
  });
});
