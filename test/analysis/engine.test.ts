import { apply, newRecord, readRecord } from '../../src/analysis/record';
import { due } from '../../src/analysis/schedule';
import { AnalysisSpec, Measurement, MeasurementPhase, MetricSpec } from '../../src/analysis/types';
import { analysisSpec, metricSpec } from '../helpers/analysis';
import { verdict } from '../../src/analysis/verdict';
import { AnalysisRecordError } from '../../src/errors';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const metric = (name: string, over: Partial<MetricSpec> = {}) => metricSpec({ name, ...over });
const spec = analysisSpec;
const m = (phase: MeasurementPhase, s: number): Measurement => ({
  startedAt: at(s).toISOString(),
  finishedAt: at(s).toISOString(),
  phase,
});

/** Applies phases to metric "a" one second apart. */
function recordOf(s: AnalysisSpec, phases: readonly MeasurementPhase[], name = 'a') {
  return phases.reduce((r, p, i) => apply(s, r, name, m(p, i)), newRecord(s, 'k', T0));
}

describe('verdict follows Argo assessMetricStatus / assessRunStatus', () => {
  const cases: [string, Partial<MetricSpec>, MeasurementPhase[], string][] = [
    ['no measurement yet', {}, [], 'Pending'],
    ['no count, no interval: one success decides', {}, ['Successful'], 'Successful'],
    ['no count, no interval: one failure fails (failureLimit 0)', {}, ['Failed'], 'Failed'],
    ['count 3: running until the count is reached', { count: 3, interval: 10 }, ['Successful'], 'Running'],
    [
      'count 3 reached with failures within failureLimit',
      { count: 3, interval: 10, failureLimit: 1 },
      ['Successful', 'Failed', 'Successful'],
      'Successful',
    ],
    [
      'failed > failureLimit ends it at once',
      { count: 5, interval: 10, failureLimit: 1 },
      ['Failed', 'Failed'],
      'Failed',
    ],
    [
      'failureLimit -1: count reached without the consecutive successes fails',
      { count: 2, interval: 10, failureLimit: -1, consecutiveSuccessLimit: 1 },
      ['Failed', 'Failed'],
      'Failed',
    ],
    ['inconclusive > inconclusiveLimit', { count: 3, interval: 10 }, ['Inconclusive'], 'Inconclusive'],
    [
      'inconclusive within inconclusiveLimit',
      { count: 2, interval: 10, inconclusiveLimit: 1 },
      ['Inconclusive', 'Successful'],
      'Successful',
    ],
    ['errors do not count toward count', { count: 1 }, ['Error', 'Error'], 'Running'],
    ['consecutive errors above the default limit 4', {}, ['Error', 'Error', 'Error', 'Error', 'Error'], 'Error'],
    ['four consecutive errors are still tolerated', {}, ['Error', 'Error', 'Error', 'Error'], 'Running'],
    ['a success resets the consecutive errors', {}, ['Error', 'Error', 'Error', 'Error', 'Successful'], 'Successful'],
    ['consecutiveErrorLimit 0: the first error ends it', { consecutiveErrorLimit: 0 }, ['Error'], 'Error'],
    [
      'interval without count runs until stopped',
      { interval: 10 },
      ['Successful', 'Successful', 'Successful'],
      'Running',
    ],
    [
      'consecutiveSuccessLimit reached succeeds early',
      { count: 5, interval: 10, consecutiveSuccessLimit: 2 },
      ['Failed', 'Successful', 'Successful'],
      'Failed',
    ],
    [
      'consecutiveSuccessLimit with failureLimit -1',
      { count: 5, interval: 10, failureLimit: -1, consecutiveSuccessLimit: 2 },
      ['Failed', 'Successful', 'Successful'],
      'Successful',
    ],
    [
      'count reached without consecutiveSuccessLimit: Inconclusive when failureLimit applies',
      { count: 2, interval: 10, failureLimit: 2, consecutiveSuccessLimit: 2 },
      ['Successful', 'Failed'],
      'Inconclusive',
    ],
  ];
  test.each(cases)('%s', (_name, over, phases, expected) => {
    const s = spec(metric('a', over));
    expect(verdict(s, recordOf(s, phases)).phase).toBe(expected);
  });

  test('the worst metric decides, and names itself', () => {
    const s = spec(metric('a'), metric('b'));
    const r = apply(s, apply(s, newRecord(s, 'k', T0), 'a', m('Successful', 0)), 'b', m('Inconclusive', 0));
    expect(verdict(s, r)).toMatchObject({
      phase: 'Inconclusive',
      reasons: [
        expect.stringMatching(/^metric "b" assessed Inconclusive due to inconclusive \(1\) > inconclusiveLimit \(0\)/),
      ],
    });
  });

  test('a dry-run metric never fails the run', () => {
    const s = spec(metric('a'), metric('b', { dryRun: true }));
    const r = apply(s, apply(s, newRecord(s, 'k', T0), 'a', m('Successful', 0)), 'b', m('Failed', 0));
    const v = verdict(s, r);
    expect(v.phase).toBe('Successful');
    expect(v.metrics.find((x) => x.name === 'b')?.phase).toBe('Failed');
  });

  test('only dry-run metrics: Successful once they complete', () => {
    const s = spec(metric('a', { dryRun: true }));
    expect(verdict(s, recordOf(s, ['Failed'])).phase).toBe('Successful');
  });

  test('a failed metric terminates the run: a running one then counts as Successful', () => {
    const s = spec(metric('a'), metric('b', { interval: 10 }));
    const r = apply(s, apply(s, newRecord(s, 'k', T0), 'b', m('Successful', 0)), 'a', m('Failed', 0));
    expect(verdict(s, r).phase).toBe('Failed');
    expect(due(s, r, at(100)).metrics).toEqual([]);
  });

  test('terminating (the gate ended) turns an unbounded metric Successful, a failure stays', () => {
    const s = spec(metric('a', { interval: 10 }));
    expect(verdict(s, recordOf(s, ['Successful']), { terminating: true }).phase).toBe('Successful');
    expect(verdict(s, newRecord(s, 'k', T0), { terminating: true }).phase).toBe('Successful');
  });
});

describe('due follows Argo generateMetricTasks', () => {
  test('initialDelay holds the first measurement', () => {
    const s = spec(metric('a', { initialDelay: 30 }), metric('b'));
    const r = newRecord(s, 'k', T0);
    expect(due(s, r, at(0))).toEqual({ metrics: ['b'], next: at(30).toISOString() });
    expect(due(s, r, at(30)).metrics).toEqual(['a', 'b']);
  });

  test('interval after the last finished measurement; none once count is reached', () => {
    const s = spec(metric('a', { count: 2, interval: 60 }));
    const r1 = recordOf(s, ['Successful']);
    expect(due(s, r1, at(59))).toEqual({ metrics: [], next: at(60).toISOString() });
    expect(due(s, r1, at(60)).metrics).toEqual(['a']);
    expect(due(s, recordOf(s, ['Successful', 'Successful']), at(1000))).toEqual({ metrics: [] });
  });

  test('an Error is retried after 10 s whatever the interval', () => {
    const s = spec(metric('a', { count: 2, interval: 600 }));
    expect(due(s, recordOf(s, ['Error']), at(5))).toEqual({ metrics: [], next: at(10).toISOString() });
  });
});

describe('record', () => {
  const s = spec(metric('a', { count: 50, interval: 1, failureLimit: 50 }));

  test('round-trips through JSON; keeps counters past the measurement history', () => {
    const phases = Array.from({ length: 40 }, (_, i): MeasurementPhase => (i % 4 === 0 ? 'Failed' : 'Successful'));
    const r = recordOf(s, phases);
    expect(r.metrics[0]).toMatchObject({ count: 40, failed: 10, successful: 30 });
    expect(r.metrics[0].measurements).toHaveLength(30);
    expect(readRecord(JSON.parse(JSON.stringify(r)))).toEqual(r);
  });

  test('a continued record schedules from where the stored one stopped', () => {
    const stored = JSON.parse(JSON.stringify(recordOf(s, ['Successful', 'Successful'])));
    expect(due(s, readRecord(stored), at(2)).metrics).toEqual(['a']);
    expect(due(s, readRecord(stored), at(1.5)).metrics).toEqual([]);
  });

  test.each([
    ['another version', (r: Record<string, unknown>) => ({ ...r, version: 2 }), /version 2, expected 1/],
    [
      'counters that do not add up',
      (r: Record<string, unknown>) => ({ ...r, metrics: [{ ...(r.metrics as object[])[0], count: 7 }] }),
      /count does not add up/,
    ],
    [
      'a phase Argo does not have',
      (r: Record<string, unknown>) => ({
        ...r,
        metrics: [
          {
            ...(r.metrics as Record<string, unknown>[])[0],
            measurements: [{ startedAt: T0.toISOString(), finishedAt: T0.toISOString(), phase: 'Passed' }],
          },
        ],
      }),
      /phase is not one of/,
    ],
    ['no object at all', () => 'x', /not an object/],
  ])('refuses %s', (_n, edit, message) => {
    const r = JSON.parse(JSON.stringify(recordOf(s, ['Successful'])));
    expect(() => readRecord(edit(r))).toThrow(AnalysisRecordError);
    expect(() => readRecord(edit(r))).toThrow(message);
  });

  test('apply refuses a metric the analysis does not have', () => {
    expect(() => apply(s, newRecord(s, 'k', T0), 'zzz', m('Successful', 0))).toThrow(/no metric "zzz"/);
  });
});
