import { formatRecord } from '../analysis/format';
import { gatesOf } from '../analysis/gates';
import { runToEnd } from '../io/metrics/run';
import { AnalysisRecord, MeasurementPhase, Verdict } from '../analysis/types';
import { AnalysisVerdictError, InputError } from '../errors';
import { readOutput } from '../app/inputs';
import { CommonOptions, RunContext } from '../app/context';
import { loadApps } from '../app/load-repo';
import { OutputOptions, isMachineOutput, printDocument } from '../app/output-format';
import { ClusterMeasured, clusterMeasured, describeClusterMeasured } from './analyze-jobs';

export interface AnalyzeOptions extends CommonOptions, OutputOptions {
  readonly step?: number;
  /** commander's --no-wait sets false: measure back to back instead of waiting out intervals. */
  readonly wait?: boolean;
}

interface Outcome {
  readonly rollout: string;
  readonly step: number;
  readonly id: string;
  readonly kind: string;
  readonly record: AnalysisRecord;
  readonly verdict: Verdict;
}

/** `rollgen analyze APP`: runs the analyses gating a step now, prints the measurements; exit 0/1/3/4 by the worst verdict. */
export async function analyzeCommand(ctx: RunContext, args: readonly string[], opts: AnalyzeOptions): Promise<void> {
  const entries = await loadApps(ctx, args, opts);
  const now = ctx.now ?? (() => new Date());
  const outcomes: Outcome[] = [];
  const byCluster: ClusterMeasured[] = [];
  for (const { loc, app } of entries) {
    for (const r of app.rollouts) {
      if (!r.analysis) continue;
      const step = opts.step ?? currentStep(loc, ctx.cwd, r.spec.name);
      for (const gate of gatesOf(r.analysis, step)) {
        const status = loc.output ? readOutput(loc, ctx.cwd).status : undefined;
        const jobs = clusterMeasured(r, gate, step, status, loc.track);
        byCluster.push(...jobs);
        if (!isMachineOutput(opts)) for (const j of jobs) ctx.stdout(describeClusterMeasured(app.name, j));
        if (gate.spec.metrics.length === 0) continue;
        const key = `${app.name}/${r.spec.name}/${gate.id}`;
        const { record, verdict } = await runToEnd(gate.spec, {
          key,
          now,
          wait: opts.wait !== false,
          sleep: (ms) => new Promise((res) => setTimeout(res, ms)),
          background: gate.kind === 'background',
          ...(ctx.env ? { env: ctx.env } : {}),
        });
        outcomes.push({ rollout: r.spec.name, step, id: gate.id, kind: gate.kind, record, verdict });
        if (!isMachineOutput(opts))
          ctx.stdout(
            formatRecord(
              `${app.name} rollout ${r.spec.name} step ${step} ${gate.kind} analysis`,
              gate.spec,
              record,
              verdict,
            ),
          );
      }
    }
  }
  const worst = worstOf(outcomes.map((o) => o.verdict.phase));
  if (isMachineOutput(opts))
    printDocument(ctx, opts.output, 'AnalysisReport', {
      verdict: worst ?? 'Successful',
      outcomes,
      ...(byCluster.length > 0 ? { measuredByCluster: byCluster } : {}),
    });
  else if (outcomes.length === 0 && byCluster.length === 0) ctx.stdout('no analysis gates this step\n');
  if (worst)
    throw new AnalysisVerdictError(
      worst,
      `analysis ${worst}: ${outcomes.flatMap(reasonsOf).join('; ') || 'see the measurements above'}`,
    );
}

/** Worst first; Running last: a step analysis still running after runToEnd never completes. */
function worstOf(phases: readonly string[]): Exclude<MeasurementPhase, 'Successful'> | 'Running' | undefined {
  for (const p of ['Failed', 'Error', 'Inconclusive'] as const) if (phases.includes(p)) return p;
  return phases.some((p) => p === 'Running' || p === 'Pending') ? 'Running' : undefined;
}

/** A step analysis left running has only metrics without count in progress: say why its gate never passes. */
function reasonsOf(o: Outcome): string[] {
  if (o.verdict.phase !== 'Running' && o.verdict.phase !== 'Pending') return [...o.verdict.reasons];
  const running = o.verdict.metrics.filter((m) => m.phase === 'Running' || m.phase === 'Pending').map((m) => m.name);
  return [
    `rollout ${o.rollout} step ${o.step} ${o.kind} analysis never completes: metric ${running.map((n) => `"${n}"`).join(', ')} has no count, so (as in Argo) it is measured until it fails and the gate never passes; add count`,
  ];
}

function currentStep(loc: Parameters<typeof readOutput>[0], cwd: string, rollout: string): number {
  const status = loc.output ? readOutput(loc, cwd).status : undefined;
  const step = status?.rollouts.find((r) => r.name === rollout)?.step ?? 0;
  if (step > 0) return step;
  throw new InputError([], `rollout ${rollout} has no live step; name one with --step N`);
}
