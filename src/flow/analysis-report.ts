import type { AnalysisRecord, AnalysisSpec, MetricSpec, Verdict } from '../analysis/types';
import { sparkline } from '../analysis/format';
import { metricRecord } from '../analysis/record';
import { firstNumber, formatSample } from '../analysis/value-text';

/** One analysis as the report shows it. */
export interface ReportedAnalysis {
  readonly title: string;
  readonly spec: AnalysisSpec;
  readonly record: AnalysisRecord;
  readonly verdict: Verdict;
}

/**
 * Markdown for people: per analysis, a table (metric, condition, a sparkline of its values, the last
 * value, counts, phase) and a Mermaid line chart of each metric's values against the threshold of
 * its condition. GitHub renders both in PR bodies and check-run summaries. Pure.
 */
export function analysisMarkdown(analyses: readonly ReportedAnalysis[]): string {
  return analyses.map(oneAnalysis).join('\n\n');
}

function oneAnalysis(a: ReportedAnalysis): string {
  const rows = a.spec.metrics.map((m) => {
    const r = metricRecord(a.record, m.name);
    const last = r.measurements[r.measurements.length - 1];
    const phase = a.verdict.metrics.find((v) => v.name === m.name)?.phase ?? 'Pending';
    const counts = `${r.successful} ✓ ${r.failed} ✗ ${r.inconclusive} ? ${r.error} ⚠`;
    const lastText = last ? `${last.value ?? last.message ?? ''} (${last.phase})` : '';
    return `| ${cell(m.name)}${m.dryRun ? ' (dry run)' : ''} | ${cell(conditions(m))} | ${sparkline(r.measurements)} | ${cell(lastText)} | ${counts} | ${phase} |`;
  });
  const table = [
    `**${cell(a.title)}**: ${a.verdict.phase}${a.verdict.reasons.length > 0 ? ` (${a.verdict.reasons.join('; ')})` : ''}`,
    '',
    '| metric | condition | values | last | counts | phase |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
  const charts = a.spec.metrics.map((m) => chart(m, numbers(a, m.name))).filter((c) => c !== '');
  return [...table, ...(charts.length > 0 ? ['', ...charts] : [])].join('\n');
}

function conditions(m: MetricSpec): string {
  return [
    m.successCondition ? `success: ${m.successCondition.source}` : '',
    m.failureCondition ? `failure: ${m.failureCondition.source}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** The first number of each measurement's value (`[0.99]`, `0.5`, `{"ok": 1}`); NaN when it has none. */
function numbers(a: ReportedAnalysis, metric: string): number[] {
  return metricRecord(a.record, metric).measurements.map((m) => firstNumber(m.value) ?? NaN);
}

/** A threshold read from a condition like `result[0] >= 0.95` or `result > 5`; undefined for anything else. */
export function threshold(m: MetricSpec): number | undefined {
  for (const c of [m.failureCondition, m.successCondition]) {
    const found = c && /^\s*result(\[0\])?\s*(>=|<=|>|<|==)\s*(-?\d+(\.\d+)?)\s*$/.exec(c.source);
    if (found) return Number(found[3]);
  }
  return undefined;
}

function chart(m: MetricSpec, values: readonly number[]): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length < 2) return '';
  const limit = threshold(m);
  const title = `${m.name}${limit !== undefined ? ` against ${limit}` : ''}`.replace(/["`]/g, '');
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${title}"`,
    `  x-axis [${values.map((_, i) => i + 1).join(', ')}]`,
    `  line [${values.map((v) => formatSample(Number.isFinite(v) ? v : 0)).join(', ')}]`,
    ...(limit !== undefined ? [`  line [${values.map(() => formatSample(limit)).join(', ')}]`] : []),
    '```',
  ].join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
