/**
 * One app's analysis across scheduled runs: each run reads the records from the check run on the
 * landing commit, takes the measurements that are due from a real (loopback) web provider, and
 * writes the check run back only when something changed. A fresh run continues from GitHub alone.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { AnalysisSpec, GateAnalysis, MetricSpec } from '../../src/analysis/types';
import { CHECK_RUN_TEXT_LIMIT, fitStore, formatStore, parseStore } from '../../src/flow/analysis-store';
import { runAnalysis } from '../../src/flow/read-analysis';
import { FakeScm } from '../helpers/fake-scm';

const at = { file: 'apps/echo/analysis.yaml', line: 1, col: 1 };
const LANDING = 'a'.repeat(40);
let now = new Date('2026-03-01T10:00:00Z');
let served: number[] = [];
let hits = 0;
let server: http.Server;
let url = '';

beforeEach(async () => {
  now = new Date('2026-03-01T10:00:00Z');
  hits = 0;
  server = http.createServer((_req, res) => {
    const rate = served[Math.min(hits++, served.length - 1)];
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: { rate } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rate`;
});
afterEach(() => new Promise<void>((r) => server.close(() => r())));

function metric(over: Partial<MetricSpec> = {}): MetricSpec {
  return {
    name: 'success-rate',
    template: 'success-rate',
    origin: at,
    interval: 60,
    count: 3,
    successCondition: { source: 'result >= 0.95', origin: at },
    failureLimit: 0,
    inconclusiveLimit: 0,
    consecutiveErrorLimit: 2,
    consecutiveSuccessLimit: 0,
    dryRun: false,
    provider: {
      kind: 'web',
      url,
      method: 'GET',
      headers: [],
      jsonPath: '{$.data.rate}',
      timeoutSeconds: 2,
      insecure: false,
      secretArgs: [],
    },
    ...over,
  };
}

function gate(m: MetricSpec, kind: GateAnalysis['kind'] = 'step'): GateAnalysis {
  const spec: AnalysisSpec = { templates: ['success-rate'], metrics: [m], origin: at };
  return { kind, id: kind === 'step' ? 'step-1' : 'background', spec };
}

async function run(fake: FakeScm, g: GateAnalysis) {
  return runAnalysis({
    scm: fake,
    app: 'echo',
    landing: LANDING,
    gates: [{ rollout: 'echo', key: 'echo/step-1/step-1@abc', gate: g }],
    startedAt: new Date('2026-03-01T10:00:00Z'),
    now: () => now,
    env: {},
    dryRun: false,
  });
}

const later = (s: number) => (now = new Date(now.getTime() + s * 1000));
const stored = (fake: FakeScm) => parseStore(fake.runs.get(LANDING)![0].output!.text)['echo/step-1/step-1@abc'];

test('healthy series: one measurement per interval, recorded on the check run, Successful after count; reruns add nothing', async () => {
  served = [0.99, 0.98, 0.99];
  const fake = new FakeScm(() => now);
  const g = gate(metric());
  expect((await run(fake, g)).verdict).toBe('running');
  expect(fake.calls.map((c) => c.op)).toEqual(['checkRuns', 'putCheckRun']);
  // A rerun at the same moment (a retried job) measures nothing and writes nothing.
  const rerun = await run(fake, g);
  expect(rerun.verdict).toBe('running');
  expect(fake.calls.map((c) => c.op)).toEqual(['checkRuns', 'putCheckRun', 'checkRuns']);
  expect(hits).toBe(1);
  later(30);
  await run(fake, g);
  expect(hits).toBe(1);
  later(30);
  await run(fake, g);
  later(60);
  const done = await run(fake, g);
  expect(done.verdict).toBe('successful');
  expect(hits).toBe(3);
  expect(stored(fake).metrics[0]).toMatchObject({ count: 3, successful: 3 });
  const checkRun = fake.runs.get(LANDING)!;
  expect(checkRun).toHaveLength(1);
  expect(checkRun[0]).toMatchObject({ name: 'rollgen analysis: echo', status: 'completed', conclusion: 'success' });
  expect(checkRun[0].output!.summary).toContain('| success-rate | success: result >= 0.95 |');
  expect(checkRun[0].output!.summary).toContain('xychart-beta');
});

test('error rate above the condition fails after failureLimit is exceeded', async () => {
  served = [0.99, 0.5, 0.4];
  const fake = new FakeScm(() => now);
  const g = gate(metric({ failureLimit: 1 }));
  expect((await run(fake, g)).verdict).toBe('running');
  later(60);
  expect((await run(fake, g)).verdict).toBe('running');
  later(60);
  const failed = await run(fake, g);
  expect(failed.verdict).toBe('failed');
  expect(failed.reason).toContain('failed (2) > failureLimit (1)');
  expect(fake.runs.get(LANDING)![0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
});

test('neither condition met: inconclusive, and the check run asks a person (action_required)', async () => {
  served = [0.9];
  const fake = new FakeScm(() => now);
  const g = gate(metric({ failureCondition: { source: 'result < 0.8', origin: at } }));
  const v = await run(fake, g);
  expect(v.verdict).toBe('inconclusive');
  expect(fake.runs.get(LANDING)![0].conclusion).toBe('action_required');
});

test('provider unreachable: errors retried every 10 s, then past consecutiveErrorLimit an error verdict (never a pass)', async () => {
  const fake = new FakeScm(() => now);
  await new Promise<void>((r) => server.close(() => r()));
  server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const g = gate(
    metric({ provider: { ...metric().provider, url: url.replace(/:\d+\//, ':1/') } as MetricSpec['provider'] }),
  );
  const verdicts: string[] = [];
  for (let i = 0; i < 4; i++) {
    verdicts.push((await run(fake, g)).verdict);
    later(10);
  }
  expect(verdicts).toEqual(['running', 'running', 'error', 'error']);
  expect(stored(fake).metrics[0]).toMatchObject({ error: 3, consecutiveError: 3 });
  const v = await run(fake, g);
  expect(v.reason).toMatch(/consecutiveErrors \(3\) > consecutiveErrorLimit \(2\)/);
});

test('a fresh run continues from the check run alone; a record that was tampered with is an error, not a restart', async () => {
  served = [0.99];
  const fake = new FakeScm(() => now);
  await run(fake, gate(metric()));
  const [checkRun] = fake.runs.get(LANDING)!;
  fake.runs.set(LANDING, [
    { ...checkRun, output: { ...checkRun.output, text: checkRun.output!.text!.replace('"count":1', '"count":7') } },
  ]);
  await expect(run(fake, gate(metric()))).rejects.toThrow(/stored analysis record is invalid/);
});

test('records too long for a check run keep their counters and lose only the oldest measurements', () => {
  const measurement = (i: number) => ({
    startedAt: new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString(),
    finishedAt: new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString(),
    phase: 'Successful' as const,
    value: `[0.99${i}]`,
  });
  const metricRecord = (name: string) => ({
    name,
    count: 30,
    successful: 30,
    failed: 0,
    inconclusive: 0,
    error: 0,
    consecutiveError: 0,
    consecutiveSuccess: 30,
    measurements: Array.from({ length: 30 }, (_, i) => measurement(i)),
  });
  const records = Object.fromEntries(
    Array.from({ length: 6 }, (_, g) => [
      `echo/gate-${g}/step-1@abc`,
      {
        version: 1 as const,
        key: `echo/gate-${g}/step-1@abc`,
        startedAt: '2026-03-01T10:00:00.000Z',
        metrics: ['a', 'b', 'c'].map(metricRecord),
      },
    ]),
  );
  expect(formatStore(records).length).toBeGreaterThan(CHECK_RUN_TEXT_LIMIT);
  const text = fitStore(records);
  expect(text.length).toBeLessThanOrEqual(CHECK_RUN_TEXT_LIMIT);
  const back = parseStore(text)['echo/gate-0/step-1@abc'].metrics[0];
  expect(back).toMatchObject({ count: 30, successful: 30, consecutiveSuccess: 30 });
  expect(back.measurements.length).toBeLessThan(30);
  expect(back.measurements[back.measurements.length - 1]).toEqual(measurement(29));
});
