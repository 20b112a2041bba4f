import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { measure } from '../../src/io/metrics/measure';
import { runToEnd } from '../../src/io/metrics/run';
import { MetricSpec } from '../../src/analysis/types';
import { analysisSpec, condition as cond, metricSpec } from '../helpers/analysis';
import { runCli } from '../helpers/cli';
import { PrometheusServer, Series, describeWithPrometheus, startPrometheus } from '../helpers/prometheus';

const FIXTURE = path.join(__dirname, 'fixtures/argo');

/** Healthy services: 1 (good) and 2 (echoserver) errors per 100 requests. Failing: 20 per 100. Canary track: 10%, stable: 0%. */
const SERIES: Series[] = [
  { metric: 'http_requests_total', labels: { service: 'good', code: '200' }, value: (i: number) => i * 99 },
  { metric: 'http_requests_total', labels: { service: 'good', code: '500' }, value: (i: number) => i * 1 },
  { metric: 'http_requests_total', labels: { service: 'echoserver', code: '200' }, value: (i: number) => i * 98 },
  { metric: 'http_requests_total', labels: { service: 'echoserver', code: '500' }, value: (i: number) => i * 2 },
  { metric: 'http_requests_total', labels: { service: 'bad', code: '200' }, value: (i: number) => i * 80 },
  { metric: 'http_requests_total', labels: { service: 'bad', code: '500' }, value: (i: number) => i * 20 },
  { metric: 'http_requests_total', labels: { track: 'canary', code: '500' }, value: (i: number) => i * 10 },
  { metric: 'http_requests_total', labels: { track: 'canary', code: '200' }, value: (i: number) => i * 90 },
  { metric: 'http_requests_total', labels: { track: 'stable', code: '200' }, value: (i: number) => i * 100 },
];

function metric(query: string, over: Partial<MetricSpec> = {}, address = ''): MetricSpec {
  const provider = {
    kind: 'prometheus' as const,
    address,
    query,
    timeoutSeconds: 5,
    headers: [],
    insecure: false,
    secretArgs: [],
  };
  return metricSpec({ provider, ...over });
}

/** The fixture app with its templates pointed at this test's Prometheus. */
function appAt(address: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-analysis-'));
  for (const f of fs.readdirSync(FIXTURE)) {
    const text = fs.readFileSync(path.join(FIXTURE, f), 'utf8').replace(/http:\/\/127\.0\.0\.1:9090/g, address);
    fs.writeFileSync(path.join(dir, f), text);
  }
  return dir;
}

describeWithPrometheus('analysis against a real Prometheus', () => {
  let prom: PrometheusServer;
  beforeAll(async () => {
    prom = await startPrometheus(SERIES);
  });
  afterAll(async () => prom?.stop());

  const successRate = (service: string) =>
    `sum(rate(http_requests_total{service="${service}",code!~"5.."}[5m])) / sum(rate(http_requests_total{service="${service}"}[5m]))`;

  test('a vector becomes an array of values; a scalar a number; no match an empty array', async () => {
    const vector = await measure(
      metric(successRate('good'), { successCondition: cond('result[0] >= 0.95') }, prom.address),
    );
    expect(vector.phase).toBe('Successful');
    expect(vector.value).toMatch(/^\[0\.99\d*\]$/);
    const scalar = await measure(
      metric('scalar(vector(0.5))', { successCondition: cond('result == 0.5') }, prom.address),
    );
    expect(scalar).toMatchObject({ phase: 'Successful', value: '0.5' });
    const none = await measure(
      metric('http_requests_total{service="absent"}', { successCondition: cond('len(result) == 0') }, prom.address),
    );
    expect(none).toMatchObject({ phase: 'Successful', value: '[]' });
  });

  test('an empty result that a condition indexes is an Error saying no data came back', async () => {
    const m = await measure(
      metric('http_requests_total{service="absent"}', { successCondition: cond('result[0] > 1') }, prom.address),
    );
    expect(m.phase).toBe('Error');
    expect(m.message).toMatch(/no data returned/);
  });

  test('healthy series pass a count-limited metric; failing series fail it after failureLimit', async () => {
    const spec = (service: string) =>
      analysisSpec(
        metric(
          successRate(service),
          { successCondition: cond('result[0] >= 0.95'), count: 3, interval: 60, failureLimit: 1 },
          prom.address,
        ),
      );
    const run = (service: string) =>
      runToEnd(spec(service), {
        key: service,
        now: () => new Date(),
        wait: false,
        background: false,
        sleep: async () => undefined,
      });
    const good = await run('good');
    expect(good.verdict.phase).toBe('Successful');
    expect(good.record.metrics[0].count).toBe(3);
    const bad = await run('bad');
    expect(bad.verdict.phase).toBe('Failed');
    // failureLimit 1: the second failed measurement decides; the third is never taken.
    expect(bad.record.metrics[0]).toMatchObject({ count: 2, failed: 2 });
    expect(bad.verdict.reasons[0]).toMatch(/failed \(2\) > failureLimit \(1\)/);
  });

  test('rollgen analyze runs the Rollout step analysis and exits 0 on healthy series, 1 on failing', async () => {
    const dir = appAt(prom.address);
    const good = await runCli(['analyze', dir, '--step', '1', '--no-wait'], dir);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/step 1 step analysis: Successful/);
    expect(good.stdout).toMatch(/success-rate \(prometheus\): Successful/);
    // The fieldRef arg named the service whose series hold 2% errors: three measurements of 0.98.
    expect(good.stdout.match(/Successful {2}\[0\.98\d*\]/g)).toHaveLength(3);
    fs.writeFileSync(
      path.join(dir, 'rollout.yaml'),
      fs
        .readFileSync(path.join(dir, 'rollout.yaml'), 'utf8')
        .replace("fieldPath: metadata.labels['app']", 'fieldPath: metadata.labels.service'),
    );
    fs.writeFileSync(
      path.join(dir, 'rollout.yaml'),
      fs
        .readFileSync(path.join(dir, 'rollout.yaml'), 'utf8')
        .replace('    app: echoserver\n', '    app: echoserver\n    service: bad\n'),
    );
    const bad = await runCli(['analyze', dir, '--step', '1', '--no-wait', '--json'], dir);
    expect(bad.code).toBe(1);
    const [outcome] = JSON.parse(bad.stdout).outcomes;
    expect(outcome).toMatchObject({ id: 'step-1', verdict: { phase: 'Failed' } });
    expect(bad.stderr).toMatch(/analysis Failed: metric "success-rate" assessed Failed/);
  });

  test('rollgen analyze exits 3 when the analysis is inconclusive (neither condition holds)', async () => {
    const dir = appAt(prom.address);
    const file = path.join(dir, 'analysis.yaml');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text.replace(
        'successCondition: len(result) == 0 || result[0] >= 0.95',
        'successCondition: result[0] > 2\n      failureCondition: result[0] < 0',
      ),
    );
    const r = await runCli(['analyze', dir, '--step', '1', '--no-wait'], dir);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/success-rate \(prometheus\): Inconclusive/);
    expect(r.stderr).toMatch(/inconclusive \(1\) > inconclusiveLimit \(0\)/);
  });

  test('background analysis: podTemplateHashValue Latest selects the canary track; 10% errors fail it', async () => {
    const dir = appAt(prom.address);
    const r = await runCli(['analyze', dir, '--step', '2', '--no-wait', '--json'], dir);
    const [outcome] = JSON.parse(r.stdout).outcomes;
    expect(outcome).toMatchObject({ kind: 'background', verdict: { phase: 'Failed' } });
    expect(outcome.record.metrics[0].measurements[0].value).toMatch(/^\[0\.(1|0999)\d*\]$/);
    expect(r.code).toBe(1);
  });
});

test('rollgen analyze exits 4 when Prometheus cannot be reached, naming the reason', async () => {
  const dir = appAt('http://127.0.0.1:1');
  const r = await runCli(['analyze', dir, '--step', '1', '--no-wait'], dir);
  expect(r.code).toBe(4);
  expect(r.stderr).toMatch(
    /analysis Error: .*consecutiveErrors \(5\) > consecutiveErrorLimit \(4\): connect ECONNREFUSED 127.0.0.1:1/,
  );
});

test('Prometheus unreachable: Error measurements until consecutiveErrorLimit, then Error, never a pass', async () => {
  const spec = analysisSpec(
    metric('up', { successCondition: cond('true'), consecutiveErrorLimit: 2 }, 'http://127.0.0.1:1'),
  );
  const { record, verdict } = await runToEnd(spec, {
    key: 'k',
    now: () => new Date(),
    wait: false,
    background: false,
    sleep: async () => undefined,
  });
  expect(verdict.phase).toBe('Error');
  expect(record.metrics[0]).toMatchObject({ error: 3, consecutiveError: 3, count: 0 });
  expect(verdict.reasons[0]).toMatch(/consecutiveErrors \(3\) > consecutiveErrorLimit \(2\): .*ECONNREFUSED/);
});
