import { measure } from '../../../src/io/metrics/measure';
import { CloudWatchProvider } from '../../../src/analysis/types';
import { condition, metricSpec } from '../../helpers/analysis';
import { Seen, VendorServer, rollgenWith, startVendor } from '../../helpers/vendor-server';

const AWS = {
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE0123',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/secret',
};
const NOW = new Date('2026-03-01T12:00:00Z');
const T = NOW.getTime() / 1000;

/** GetMetricData's answer in the AWS JSON 1.0 protocol: timestamps in epoch seconds. */
const results = (values: number[][], extra: Record<string, unknown> = {}) => ({
  json: {
    MetricDataResults: values.map((v, i) => ({
      Id: i === 0 ? 'rate' : `q${i}`,
      Label: i === 0 ? 'rate' : `q${i}`,
      Timestamps: v.map((_, j) => T - 60 * j),
      Values: v,
      StatusCode: 'Complete',
    })),
    Messages: [],
    ...extra,
  },
});

let cw: VendorServer;
beforeAll(async () => {
  cw = await startVendor(() => results([]));
});
afterAll(() => cw.close());
beforeEach(() => cw.seen.splice(0));

const QUERIES = [
  { Id: 'rate', Expression: 'errors / requests' },
  {
    Id: 'errors',
    MetricStat: {
      Metric: {
        Namespace: 'AWS/ApplicationELB',
        MetricName: 'HTTPCode_Target_5XX_Count',
        Dimensions: [{ Name: 'LoadBalancer', Value: 'app/checkout/50dc6c495c0c9188' }],
      },
      Period: 300,
      Stat: 'Sum',
      Unit: 'Count',
    },
    ReturnData: false,
  },
];

function metric(success: string) {
  const provider: CloudWatchProvider = {
    kind: 'cloudwatch',
    intervalSeconds: 1800,
    metricDataQueries: QUERIES,
    timeoutSeconds: 5,
    secretArgs: [],
  };
  return metricSpec({ provider, successCondition: condition(success) });
}

const env = () => ({ ...AWS, AWS_ENDPOINT_URL_CLOUDWATCH: cw.url });
const ARGO_CONDITION = 'len(result[0].Values) >= 5 and all(result[0].Values, {# <= 0.01})';

describe('CloudWatch through the AWS SDK against a loopback GetMetricData', () => {
  test('the signed AWS JSON request; MetricDataResults as Argo exposes them (result[0].Values)', async () => {
    cw.answer = () => results([[0.001, 0.002, 0, 0.004, 0.01]]);
    expect(await measure(metric(ARGO_CONDITION), { env: env(), now: () => NOW })).toMatchObject({
      phase: 'Successful',
      value: '[[0.001 0.002 0 0.004 0.01]]',
    });
    const [req]: Seen[] = cw.seen;
    expect([req.method, req.url]).toEqual(['POST', '/']);
    expect(req.headers['x-amz-target']).toBe('GraniteServiceVersion20100801.GetMetricData');
    expect(req.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(req.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE0123\/\d{8}\/eu-west-1\/monitoring\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.parse(req.body)).toEqual({ StartTime: T - 1800, EndTime: T, MetricDataQueries: QUERIES });
  });

  test('fewer or higher values fail the condition; the fields other than Values are there too', async () => {
    cw.answer = () => results([[0.001, 0.2, 0, 0.004, 0.01]]);
    expect((await measure(metric(ARGO_CONDITION), { env: env(), now: () => NOW })).phase).toBe('Failed');
    cw.answer = () => results([[0.001]]);
    expect((await measure(metric(ARGO_CONDITION), { env: env(), now: () => NOW })).phase).toBe('Failed');
    cw.answer = () => results([[0.5]]);
    const shape = metric(
      'result[0].Id == "rate" && result[0].StatusCode == "Complete" && len(result[0].Timestamps) == 1',
    );
    expect((await measure(shape, { env: env(), now: () => NOW })).phase).toBe('Successful');
  });

  test("an AWS error is an Error with AWS's message; the secret key never reaches it", async () => {
    cw.answer = () => ({
      status: 400,
      json: { __type: 'InvalidParameterValueException', message: `bad expression (key ${AWS.AWS_SECRET_ACCESS_KEY})` },
    });
    const x = await measure(metric(ARGO_CONDITION), { env: env(), now: () => NOW });
    expect(x.phase).toBe('Error');
    expect(x.message).toBe('bad expression (key *****)');
    const none = await measure(metric(ARGO_CONDITION), { env: { AWS_ENDPOINT_URL_CLOUDWATCH: cw.url } });
    expect(none.message).toBe(
      'CloudWatch needs a region: set AWS_REGION (aws-actions/configure-aws-credentials sets it)',
    );
  });
});

describe('rollgen analyze measures the CloudWatch example against the loopback GetMetricData', () => {
  test('low error rates pass step 1; one high rate fails it (exit 1)', async () => {
    cw.answer = () => results([[0.001, 0.002, 0, 0.004, 0.01]]);
    const args = ['analyze', 'examples/argo-analysis/cloudwatch', '--step', '1', '--no-wait'];
    const ok = await rollgenWith(args, env());
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/error-rate \(cloudwatch\): Successful/);
    expect(cw.seen).toHaveLength(3);
    const sent = JSON.parse(cw.seen[0].body).MetricDataQueries;
    expect(sent.map((q: { Id: string }) => q.Id)).toEqual(['rate', 'errors', 'requests']);
    expect(sent[1].MetricStat.Metric.Dimensions).toEqual([
      { Name: 'LoadBalancer', Value: 'app/checkout/50dc6c495c0c9188' },
    ]);
    cw.answer = () => results([[0.001, 0.2, 0, 0.004, 0.01]]);
    const bad = await rollgenWith(args, env());
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/error-rate \(cloudwatch\): Failed/);
  });
});
