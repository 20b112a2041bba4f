import { AnalysisRecord, AnalysisSpec, Measurement, MeasurementPhase, Verdict } from './types';
import { firstNumber } from './value-text';

const MARK: Record<MeasurementPhase, string> = { Successful: '✓', Failed: '✗', Inconclusive: '?', Error: '!' };
const BARS = '▁▂▃▄▅▆▇█';

/**
 * One analysis as text for a terminal, a PR body or a check run (inside a code block): the verdict,
 * a table of measurements per metric, and a sparkline of each metric's values beside its condition. Pure.
 */
export function formatRecord(title: string, spec: AnalysisSpec, record: AnalysisRecord, v: Verdict): string {
  const lines = [`${title}: ${v.phase}${v.reasons.length ? ` (${v.reasons.join('; ')})` : ''}`];
  for (const metric of spec.metrics) {
    const r = record.metrics.find((m) => m.name === metric.name);
    const verdict = v.metrics.find((m) => m.name === metric.name);
    const condition = [
      metric.successCondition ? `success: ${metric.successCondition.source}` : '',
      metric.failureCondition ? `failure: ${metric.failureCondition.source}` : '',
    ]
      .filter((c) => c !== '')
      .join('; ');
    lines.push(
      `  ${metric.name} (${metric.provider.kind}${metric.dryRun ? ', dry run' : ''}): ${verdict?.phase ?? 'Pending'}` +
        (condition ? ` [${condition}]` : ''),
    );
    const ms = r?.measurements ?? [];
    if (ms.length === 0) continue;
    lines.push(`    chart ${sparkline(ms)}  ${ms.map((m) => MARK[m.phase]).join('')}`);
    lines.push(...table(ms).map((l) => `    ${l}`));
  }
  return lines.join('\n') + '\n';
}

function table(ms: readonly Measurement[]): string[] {
  const rows = [
    ['#', 'FINISHED', 'PHASE', 'VALUE', 'MESSAGE'],
    ...ms.map((m, i) => [String(i + 1), m.finishedAt, m.phase, m.value ?? '-', m.message ?? '']),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]))
      .join('  ')
      .trimEnd(),
  );
}

/** The first number of each value (a vector's first sample), scaled between the smallest and largest seen; `·` where there is none. */
export function sparkline(ms: readonly Measurement[]): string {
  const values = ms.map((m) => firstNumber(m.value));
  const finite = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  return values
    .map((v) => {
      if (v === undefined || !Number.isFinite(v)) return '·';
      const i = hi === lo ? BARS.length - 1 : Math.round(((v - lo) / (hi - lo)) * (BARS.length - 1));
      return BARS[i];
    })
    .join('');
}
