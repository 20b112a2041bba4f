import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { measure } from '../../src/io/metrics/measure';
import { MetricSpec, PrometheusRange } from '../../src/analysis/types';
import { parseTimeExpr, timeAt } from '../../src/analysis/time-expression';
import { condition, metricSpec } from '../helpers/analysis';
import { PrometheusServer, Series, describeWithPrometheus, startPrometheus } from '../helpers/prometheus';
import { rollgenWith } from '../helpers/vendor-server';

const FIXTURE = path.join(__dirname, 'fixtures/argo');

/** 1 error per 100 requests for `good`, 20 for `bad`; a sample every 15 s over the last 15 minutes. */
const SERIES: Series[] = [
  { metric: 'http_requests_total', labels: { service: 'good', code: '200' }, value: (i) => i * 99 },
  { metric: 'http_requests_total', labels: { service: 'good', code: '500' }, value: (i) => i * 1 },
  { metric: 'http_requests_total', labels: { service: 'bad', code: '200' }, value: (i) => i * 80 },
  { metric: 'http_requests_total', labels: { service: 'bad', code: '500' }, value: (i) => i * 20 },
];

const successRate = (service: string) =>
  `sum(rate(http_requests_total{service="${service}",code!~"5.."}[1m])) / sum(rate(http_requests_total{service="${service}"}[1m]))`;

/** start now() - duration("5m"), end now() - duration("1m"), step 1m: five points. */
const LAST_FIVE_MINUTES: PrometheusRange = {
  start: { base: 'now', offsetSeconds: -300 },
  end: { base: 'now', offsetSeconds: -60 },
  stepSeconds: 60,
};

function metric(address: string, service: string, rangeQuery: PrometheusRange): MetricSpec {
  return metricSpec({
    successCondition: condition('len(result) > 0 && all(result, {# >= 0.95})'),
    provider: {
      kind: 'prometheus',
      address,
      query: successRate(service),
      timeoutSeconds: 5,
      headers: [],
      insecure: false,
      rangeQuery,
      secretArgs: [],
    },
  });
}

/** The fixture app, its success-rate template measuring a range `lookback` long (an arg) at a real Prometheus. */
function appWithRange(address: string, condition: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-range-'));
  for (const f of fs.readdirSync(FIXTURE)) {
    const text = fs.readFileSync(path.join(FIXTURE, f), 'utf8').replace(/http:\/\/127\.0\.0\.1:9090/g, address);
    fs.writeFileSync(path.join(dir, f), text);
  }
  const file = path.join(dir, 'analysis.yaml');
  const text = fs
    .readFileSync(file, 'utf8')
    .replace('    - name: service-name\n', '    - name: service-name\n    - name: lookback\n      value: 4m\n')
    .replace('successCondition: len(result) == 0 || result[0] >= 0.95', `successCondition: ${condition}`)
    .replace(
      '          address: "{{args.prometheus}}"\n          query: |',
      [
        '          address: "{{args.prometheus}}"',
        '          rangeQuery:',
        '            start: now() - duration("{{args.lookback}}")',
        '            end: now()',
        '            step: 1m',
        '          query: |',
      ].join('\n'),
    );
  fs.writeFileSync(file, text);
  return dir;
}

describeWithPrometheus('prometheus rangeQuery against a real Prometheus', () => {
  let prom: PrometheusServer;
  beforeAll(async () => {
    prom = await startPrometheus(SERIES);
  });
  afterAll(async () => prom?.stop());

  test('a range query yields every point of the matrix, so all(result, ...) judges the whole window', async () => {
    const good = await measure(metric(prom.address, 'good', LAST_FIVE_MINUTES));
    expect(good.phase).toBe('Successful');
    // start..end every step: five points, each the 1% error rate.
    const points = (value: unknown) => JSON.parse(String(value)) as number[];
    expect(points(good.value).map((v) => v.toFixed(3))).toEqual(Array(5).fill('0.990'));
    const bad = await measure(metric(prom.address, 'bad', LAST_FIVE_MINUTES));
    expect(bad.phase).toBe('Failed');
    // Prometheus' float arithmetic may give 0.7999999999999999 for 0.8: compare rounded.
    expect(points(bad.value).map((v) => v.toFixed(3))).toEqual(Array(5).fill('0.800'));
  });

  test("start and end are read against the measurement's clock: three hours back there is no data", async () => {
    const past = new Date(Date.now() - 3 * 3600_000);
    const m = await measure(metric(prom.address, 'good', LAST_FIVE_MINUTES), { now: () => past });
    expect(m).toMatchObject({ phase: 'Failed', value: '[]' });
    const tenMinutes = { ...LAST_FIVE_MINUTES, start: { base: 'now' as const, offsetSeconds: -600 } };
    const longer = await measure(metric(prom.address, 'good', tenMinutes));
    expect(longer.value?.split(',')).toHaveLength(10);
  });

  test('rollgen analyze measures a template whose rangeQuery start uses an arg, and fails a low rate', async () => {
    const dir = appWithRange(prom.address, 'all(result, {# >= 0.95})');
    // The Rollout's step analysis names the service through metadata.labels['app'] (echoserver).
    fs.writeFileSync(
      path.join(dir, 'rollout.yaml'),
      fs.readFileSync(path.join(dir, 'rollout.yaml'), 'utf8').replace(/app: echoserver/g, 'app: good'),
    );
    const ok = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], {}, dir);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    // lookback 4m, step 1m: five points per measurement.
    expect(ok.stdout.match(/Successful {2}\[(0\.99\d*,){4}0\.99\d*\]/g)).toHaveLength(3);
    fs.writeFileSync(
      path.join(dir, 'rollout.yaml'),
      fs.readFileSync(path.join(dir, 'rollout.yaml'), 'utf8').replace(/app: good/g, 'app: bad'),
    );
    const bad = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], {}, dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/analysis Failed: metric "success-rate" assessed Failed/);
  });
});

describe('rollgen validate checks rangeQuery at its field', () => {
  test('an expression rollgen cannot evaluate, a bad step and an end before start are refused at their line', async () => {
    const dir = appWithRange('http://127.0.0.1:9090', 'all(result, {# >= 0.95})');
    const file = path.join(dir, 'analysis.yaml');
    const text = fs
      .readFileSync(file, 'utf8')
      .replace('start: now() - duration("{{args.lookback}}")', 'start: now().Add(-time.Hour)')
      .replace('step: 1m', 'step: soon');
    fs.writeFileSync(file, text);
    const line = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const r = await rollgenWith(['validate', '.'], {}, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `analysis.yaml:${line('start: now().Add')}:20: rangeQuery.start: "now().Add(-time.Hour)" is not a time expression rollgen evaluates: write now() or date("2026-01-02T15:04:05Z"), optionally plus or minus duration("...") terms, e.g. now() - duration("1h")`,
    );
    expect(r.stderr).toContain(
      `analysis.yaml:${line('step: soon')}:19: rangeQuery.step "soon" is not a positive duration such as 30s or 1m`,
    );
    fs.writeFileSync(
      file,
      text
        .replace('start: now().Add(-time.Hour)', 'start: now()')
        .replace('end: now()', 'end: now() - duration("1h")')
        .replace('step: soon', 'step: 1m'),
    );
    const backwards = await rollgenWith(['validate', '.'], {}, dir);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/analysis\.yaml:\d+:18: rangeQuery\.end is before rangeQuery\.start/);
  });
});

describe("Argo's rangeQuery time expressions rollgen evaluates", () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const at = (text: string) => {
    const t = parseTimeExpr(text);
    return 'error' in t ? t.error : new Date(timeAt(t, now)).toISOString();
  };

  test('now() and date() plus or minus any number of durations, in either order', () => {
    expect(at('now()')).toBe('2026-03-01T12:00:00.000Z');
    expect(at('now() - duration("1h30m")')).toBe('2026-03-01T10:30:00.000Z');
    expect(at(' duration("5m") + now() - duration("10m") ')).toBe('2026-03-01T11:55:00.000Z');
    expect(at('now() + duration("-2m")')).toBe('2026-03-01T11:58:00.000Z');
    expect(at('date("2026-02-28T23:00:00+01:00") + duration("1h")')).toBe('2026-02-28T23:00:00.000Z');
    expect(at('date("2026-02-28") - duration("1h")')).toBe('2026-02-27T23:00:00.000Z');
  });

  test('anything else is refused with what to write', () => {
    expect(at('now() - now()')).toMatch(/subtracts a time; write now\(\) or date/);
    expect(at('duration("1h")')).toMatch(/is a duration, not a time/);
    expect(at('now() - duration("1 hour")')).toBe('duration("1 hour") is not a Go duration such as 30s, 5m or 1h30m');
    expect(at('date("yesterday")')).toMatch(/is not an RFC 3339 time/);
    expect(at('date("2026-02-30")')).toMatch(/is not an RFC 3339 time/); // no such day (Date.parse rolls it over)
    expect(at('date("2024-02-29T00:00:00Z")')).toBe('2024-02-29T00:00:00.000Z'); // a leap day exists
    expect(at('now().Add(-time.Hour)')).toMatch(/is not a time expression rollgen evaluates/);
  });
});
