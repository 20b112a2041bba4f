import { readRecord } from '../analysis/record';
import { AnalysisRecordError } from '../errors';
import type { AnalysisRecord, GateAnalysis, Verdict } from '../analysis/types';
import type { CheckConclusion } from '../scm/types';
import type { AnalysisGate } from './gate-signals';

/**
 * The analysis records of one app's current step, kept in the text of a check run on the commit
 * that landed the step: a fenced JSON block any later run (a fresh runner) reads back. Versioned;
 * a record that does not read back is an error, never a silent restart. Pure.
 */
export const STORE_VERSION = 1;
const OPENING = '```json rollgen-analysis\n';
const FENCE = /```json rollgen-analysis\n([\s\S]*?)\n```/;

export type StoredRecords = Readonly<Record<string, AnalysisRecord>>;

export function checkRunName(app: string): string {
  return `rollgen analysis: ${app}`;
}

/** GitHub keeps at most this many characters of a check run's text. */
export const CHECK_RUN_TEXT_LIMIT = 65535;

/**
 * formatStore within GitHub's limit: when the text would be too long, the oldest measurements of
 * every metric are dropped (keeping the newest 16, 8, ... 1). The counters keep the totals, and the
 * schedule needs only the last measurement, so the analysis continues exactly; only the history
 * shown gets shorter.
 */
export function fitStore(records: StoredRecords, limit = CHECK_RUN_TEXT_LIMIT): string {
  let text = formatStore(records);
  for (let keep = 16; text.length > limit && keep >= 1; keep = Math.floor(keep / 2)) {
    const trimmed = Object.fromEntries(
      Object.entries(records).map(([k, r]) => [
        k,
        { ...r, metrics: r.metrics.map((m) => ({ ...m, measurements: m.measurements.slice(-keep) })) },
      ]),
    );
    text = formatStore(trimmed);
  }
  return text;
}

export function formatStore(records: StoredRecords): string {
  const sorted = Object.fromEntries(Object.entries(records).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const json = JSON.stringify({ rollgen: 'analysis', v: STORE_VERSION, records: sorted });
  return `Measurements rollgen records between runs (machine-readable; do not edit).\n\n\`\`\`json rollgen-analysis\n${json}\n\`\`\`\n`;
}

/** The records of a check run's text; {} when it has none. Throws AnalysisRecordError when they do not read back. */
export function parseStore(text: string | undefined): StoredRecords {
  const found = text ? FENCE.exec(text) : null;
  // An opening fence without its close is a record cut short, never "no record yet".
  if (!found && text?.includes(OPENING))
    throw new AnalysisRecordError('stored analysis records are cut off: the JSON block has no closing fence');
  if (!found) return {};
  let value: { v?: unknown; records?: Record<string, unknown> };
  try {
    value = JSON.parse(found[1]) as typeof value;
  } catch (e) {
    throw new AnalysisRecordError(`stored analysis records are not JSON: ${(e as Error).message}`);
  }
  if (value.v !== STORE_VERSION || typeof value.records !== 'object' || value.records === null)
    throw new AnalysisRecordError(
      `stored analysis records are invalid: version ${String(value.v)}, expected ${STORE_VERSION}${newer(value.v) ? ' (written by a newer rollgen: run one rollgen version in every workflow)' : ''}`,
    );
  return Object.fromEntries(Object.entries(value.records).map(([k, r]) => [k, readRecord(r)]));
}

const newer = (v: unknown) => typeof v === 'number' && v > STORE_VERSION;

/** One gate's analysis with its record and verdict. */
export interface GateResult {
  readonly gate: GateAnalysis;
  readonly record: AnalysisRecord;
  readonly verdict: Verdict;
}

/**
 * The flow's view of every analysis at this gate: the worst of them decides (failed, error,
 * inconclusive); a step analysis that is not yet Successful blocks; a background analysis only
 * blocks by failing.
 */
export function combine(results: readonly GateResult[], report: string): AnalysisGate {
  const phases = results.map((r) => r.verdict.phase);
  const reasons = results.flatMap((r) => r.verdict.reasons.map((x) => `${r.gate.spec.templates.join('+')}: ${x}`));
  const blocking = results.some((r) => r.gate.kind === 'step' && r.verdict.phase !== 'Successful');
  const verdict = phases.includes('Failed')
    ? 'failed'
    : phases.includes('Error')
      ? 'error'
      : phases.includes('Inconclusive')
        ? 'inconclusive'
        : blocking || phases.some((p) => p === 'Running' || p === 'Pending')
          ? 'running'
          : 'successful';
  // A timed gate after a step analysis counts from when it ended, as Argo starts a pause after its analysis step.
  const ends = results
    .filter((r) => r.gate.kind === 'step')
    .flatMap((r) => r.record.metrics.flatMap((m) => m.measurements.map((x) => x.finishedAt)))
    .sort();
  const passedAt = !blocking && ends.length > 0 ? { passedAt: new Date(ends[ends.length - 1]) } : {};
  const progress = results
    .map((r) => `${r.gate.spec.templates.join('+')} (${r.gate.kind}) ${r.verdict.phase}`)
    .join(', ');
  return { verdict, reason: reasons.length > 0 ? reasons.join('; ') : progress, report, blocking, ...passedAt };
}

/** The check run's state for a combined verdict: inconclusive asks a person (action_required). */
export function runState(v: AnalysisGate['verdict']): {
  status: 'in_progress' | 'completed';
  conclusion?: Exclude<CheckConclusion, 'startup_failure'>;
} {
  switch (v) {
    case 'running':
      return { status: 'in_progress' };
    case 'successful':
      return { status: 'completed', conclusion: 'success' };
    case 'inconclusive':
      return { status: 'completed', conclusion: 'action_required' };
    default:
      return { status: 'completed', conclusion: 'failure' };
  }
}
