import { gatesOf } from '../analysis/gates';
import { newRecord } from '../analysis/record';
import { takeDue } from '../io/metrics/run';
import type { AnalysisRecord, GateAnalysis, RolloutAnalysis } from '../analysis/types';
import type { LoadedRollout } from '../spec/loaded-app';
import type { AppStatus } from '../state/status';
import { AnalysisRecordError } from '../errors';
import type { CheckRun, ScmClient } from '../scm/types';
import { analysisMarkdown } from './analysis-report';
import {
  GateResult,
  StoredRecords,
  checkRunName,
  combine,
  fitStore,
  formatStore,
  parseStore,
  runState,
} from './analysis-store';
import type { AnalysisGate } from './gate-signals';

/** One analysis due at the current gate of one rollout, and the key its record is stored under. */
export interface DueGate {
  readonly rollout: string;
  readonly key: string;
  readonly gate: GateAnalysis;
}

/** The analyses that gate the step each progressing rollout of the app stands on. Pure. */
export function dueGates(rollouts: readonly LoadedRollout[], status: AppStatus | undefined): DueGate[] {
  return rollouts.flatMap((r) => {
    const at = status?.rollouts.find((s) => s.name === r.spec.name);
    if (!at || at.phase !== 'Progressing' || at.step < 1) return [];
    return gatesOf(analysisOf(r), at.step).map((gate) => ({
      rollout: r.spec.name,
      // A record belongs to one rollout, gate, step and revision: anything else starts afresh.
      key: `${r.spec.name}/${gate.id}/step-${at.step}@${at.canaryRevision ?? at.stableRevision}`,
      gate,
    }));
  });
}

/** The engine attaches a rollout's analyses to LoadedRollout.analysis. */
function analysisOf(r: LoadedRollout): RolloutAnalysis | undefined {
  return (r as LoadedRollout & { analysis?: RolloutAnalysis }).analysis;
}

export interface AnalysisRun {
  readonly scm: ScmClient;
  readonly app: string;
  /** The commit that landed the step: the check run lives there. */
  readonly landing: string;
  readonly gates: readonly DueGate[];
  /** When the step went live (landed, or reported healthy): the analyses' clocks start there. */
  readonly startedAt: Date;
  readonly now: () => Date;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly dryRun: boolean;
}

/**
 * One run's share of the analysis: read the records from the check run (one request), take the
 * measurements that are due, write the check run back only when something changed (one request),
 * and return the verdict. A rerun with nothing due writes nothing, so measurements never duplicate.
 */
export async function runAnalysis(a: AnalysisRun): Promise<AnalysisGate> {
  const name = checkRunName(a.app);
  const runs = await a.scm.checkRuns(a.landing, name);
  const run = [...runs].sort((x, y) => y.id - x.id)[0];
  const stored = readStored(a.app, a.landing, run);
  const now = a.now();
  const results: GateResult[] = [];
  const records: Record<string, AnalysisRecord> = { ...stored };
  for (const g of a.gates) {
    const before = stored[g.key] ?? newRecord(g.gate.spec, g.key, a.startedAt > now ? now : a.startedAt);
    const { record, verdict } = await takeDue(g.gate.spec, before, { env: a.env, now: a.now });
    records[g.key] = record;
    results.push({ gate: g.gate, record, verdict });
  }
  const report = analysisMarkdown(
    results.map((r, i) => ({
      title: `${a.gates[i].rollout}: ${r.gate.spec.templates.join(', ')} (${r.gate.kind} analysis)`,
      spec: r.gate.spec,
      record: r.record,
      verdict: r.verdict,
    })),
  );
  const gate = combine(results, report);
  const text = fitStore(records);
  const state = runState(gate.verdict);
  // Compared as read back (key order included), so an unchanged rerun never writes.
  const changed =
    !run ||
    formatStore(stored) !== text ||
    run.status !== state.status ||
    (run.conclusion ?? undefined) !== state.conclusion;
  if (changed && !a.dryRun)
    await a.scm.putCheckRun({
      sha: a.landing,
      name,
      ...(run ? { id: run.id } : {}),
      ...state,
      output: { title: `analysis ${gate.verdict}: ${gate.reason}`.slice(0, 255), summary: report, text },
    });
  return gate;
}

/**
 * The records of the app's check run. One that does not read back holds this app alone (the flow
 * goes on with the others): never restarted, never guessed. The error names the app, the commit
 * and the check run, and what a person can do.
 */
function readStored(app: string, landing: string, run: CheckRun | undefined): StoredRecords {
  try {
    return parseStore(run?.output?.text);
  } catch (e) {
    if (!(e instanceof AnalysisRecordError)) throw e;
    throw new AnalysisRecordError(
      `the analysis record in check run "${checkRunName(app)}" (id ${run?.id}) on commit ${landing} does not read back: ${e.message}. ` +
        `rollgen holds ${app} rather than restart or guess its analysis: no step PR opens or merges for it, and nothing is aborted. ` +
        `A person decides: \`rollgen retry ${app} --pr\` opens its next step's PR for a person to merge without this analysis ` +
        `(the next step's analysis is recorded afresh on the commit that lands it), or \`rollgen abort ${app} --pr\` rolls the canary back.`,
      { cause: e },
    );
  }
}
