import { measure } from '../../../src/io/metrics/measure';
import { condition, metricSpec } from '../../helpers/analysis';
import { VendorServer, exampleAt, rollgenWith, startVendor } from '../../helpers/vendor-server';

const NOW = new Date('2026-03-01T12:00:00Z');

/** SkyWalking OAP's GraphQL answer to readMetricsValues, aliased service_apdex as in Argo's example. */
const apdex = (...values: number[]) => ({
  json: { data: { service_apdex: { label: null, values: { values: values.map((value) => ({ value })) } } } },
});

let oap: VendorServer;
beforeAll(async () => {
  oap = await startVendor(() => apdex());
});
afterAll(() => oap.close());
beforeEach(() => oap.seen.splice(0));

const QUERY =
  'query queryData($duration: Duration!) { service_apdex: readMetricsValues(condition: {name: "service_apdex"}, duration: $duration) { label values { values { value } } } }';
const ARGO_CONDITION = 'all(result.service_apdex.values.values, {asInt(.value) >= 9900})';

const metric = (success: string) =>
  metricSpec({
    successCondition: condition(success),
    provider: {
      kind: 'skywalking',
      address: oap.url,
      query: QUERY,
      intervalSeconds: 180,
      timeoutSeconds: 5,
      secretArgs: [],
    },
  });

describe('SkyWalking against a loopback OAP GraphQL endpoint', () => {
  test('POST /graphql with $duration over the interval (minutes, step MINUTE); data is the result', async () => {
    oap.answer = () => apdex(9950, 9990);
    expect(await measure(metric(ARGO_CONDITION), { env: {}, now: () => NOW })).toMatchObject({
      phase: 'Successful',
      value: '{"service_apdex":{"label":null,"values":{"values":[{"value":9950},{"value":9990}]}}}',
    });
    const [req] = oap.seen;
    expect([req.method, req.url]).toEqual(['POST', '/graphql']);
    expect(JSON.parse(req.body)).toEqual({
      query: QUERY,
      variables: { duration: { start: '2026-03-01 1157', end: '2026-03-01 1200', step: 'MINUTE' } },
    });
    oap.answer = () => apdex(9950, 9000);
    expect((await measure(metric(ARGO_CONDITION), { env: {}, now: () => NOW })).phase).toBe('Failed');
  });

  test('GraphQL errors are the Error message; no data is an Error', async () => {
    oap.answer = () => ({ json: { data: null, errors: [{ message: 'Unknown metric service_apdx' }] } });
    expect(await measure(metric(ARGO_CONDITION), { env: {} })).toMatchObject({
      phase: 'Error',
      message: 'graphql: Unknown metric service_apdx',
    });
    oap.answer = () => ({ json: { data: null } });
    expect((await measure(metric(ARGO_CONDITION), { env: {} })).message).toBe(
      'no results returned from SkyWalking query',
    );
  });
});

describe('rollgen analyze measures the SkyWalking example against the loopback OAP', () => {
  test("Argo's example condition (expr-lang's {.value} shorthand) passes, then fails (exit 1)", async () => {
    const dir = exampleAt('skywalking', /http:\/\/skywalking-oap\.istio-system:12800/, oap.url);
    oap.answer = () => apdex(9950, 9999);
    const ok = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], {});
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/success-rate \(skywalking\): Successful/);
    expect(JSON.parse(oap.seen[0].body).query).toContain('serviceName: "checkout"');
    oap.answer = () => apdex(9950, 8000);
    const bad = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], {});
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/success-rate \(skywalking\): Failed/);
  });
});
