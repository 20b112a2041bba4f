import { sortDiagnostics } from '../diagnostics';
import { describeGate } from '../plan/gates';
import { ALL_TRAFFIC, BY_PODS, trafficLabel } from '../plan/traffic-label';
import { matches } from '../plan/format';
import { Gate, PlannedStep, strategyLabel } from '../model/plan';
import { describePhase } from '../render/phase';
import { HealthPolicy } from '../io/config';
import { TrackLabel } from '../model/track';
import { AppTransition, OutputSnapshot } from '../state/app-state';
import { renderPhaseOf } from '../state/lifecycle';
import type { LoadedApp } from '../spec/loaded-app';
import { AbortPath, RepoLinks, abortPath } from './abort-path';
import { Target } from './branch';
import { describeTarget } from './describe';
import { blueGreenEffect, mergeEffect } from './merge-effect';
import { NextStep, nextStep } from './next-step';
import { RolloutChange, rolloutChanges } from './rollout-change';

/** Everything a title or body template can use; documented in docs/github-flow.md. */
export interface PrTemplateData {
  readonly app: string;
  readonly action: string;
  readonly target: string;
  readonly step: number | null;
  readonly steps: number;
  readonly phase: string;
  readonly revision: string;
  readonly stableRevision: string;
  readonly base: string;
  readonly branch: string;
  readonly output: string;
  readonly rollouts: readonly RolloutView[];
  readonly gate: { readonly kind: Gate['kind']; readonly seconds: number | null; readonly text: string };
  readonly mergeEffect: string;
  /** The pod-template change of each rollout this PR moves whose canary differs from stable: images old -> new, other fields. */
  readonly changes: readonly RolloutChange[];
  /** How `changes` reads: `Rolling out`, or `Aborting` on an abort or a source reverted to stable. */
  readonly changeVerb: string;
  /** The newest commit under the app's source on the base: what brought this change. Null when git has none. */
  readonly sourceCommit: SourceCommit | null;
  /** What happens once this PR has landed. */
  readonly next: NextStep;
  /** How to stop the rollout from GitHub and from a shell; null on PRs that move no canary forward. */
  readonly abort: AbortPath | null;
  readonly files: readonly { readonly path: string; readonly change: 'added' | 'modified' | 'deleted' }[];
  /** What rollgen read past in the app's specs (field ledger warnings), `file:line:col: message`, for the reviewer. */
  readonly warnings: readonly string[];
}

export interface RolloutView {
  readonly name: string;
  /** canary, partition or blue-green (and `canary (ping-pong)`), as plan and status name it. */
  readonly strategy: string;
  readonly canaryReplicas: number;
  readonly stableReplicas: number;
  /** `20%`, `40/1000`, or `by pods` when Services share both tracks. */
  readonly traffic: string;
  readonly matches: string;
  /** Stable (`█`) against canary (`░`) share in 20 cells, with the percentages. */
  readonly bar: string;
}

export interface SourceCommit {
  readonly sha: string;
  /** The first 10 characters of `sha`. */
  readonly short: string;
  readonly subject: string;
}

export interface TemplateInput {
  readonly app: LoadedApp;
  readonly transition: AppTransition;
  /** The output before this PR: its stable pod templates are the "old" side of `changes`. */
  readonly before: OutputSnapshot;
  readonly track: TrackLabel;
  readonly health?: HealthPolicy;
  readonly links: RepoLinks;
  readonly sourceCommit?: SourceCommit;
  readonly target: Target;
  readonly gate: Gate;
  readonly base: string;
  readonly branch: string;
  readonly output: string;
  readonly files: PrTemplateData['files'];
}

/** The data of one PR's templates. Pure and deterministic: no clock, so an unchanged PR stays unchanged. */
/** Blue-green steps' own names (preview, switch) for the phase line, as messages and plan show them. */
const stepNames = (i: TemplateInput, rollout: string) =>
  i.app.rollouts.find((r) => r.spec.name === rollout)?.plan.steps.map((st) => st.name) ?? [];

export function templateData(i: TemplateInput): PrTemplateData {
  const status = i.transition.status.rollouts;
  const first = status.find((s) => i.transition.actions.some((a) => a.rollout === s.name)) ?? status[0];
  const steps = Math.max(0, ...status.map((s) => s.steps));
  const rollouts = i.app.rollouts
    .map((r) =>
      rolloutView(
        r.spec.name,
        r.plan.replicas,
        r.plan.steps,
        renderPhaseOf(status.find((s) => s.name === r.spec.name)),
        r.spec.pingPong !== undefined,
      ),
    )
    .map((view, n) => ({ ...view, strategy: strategyLabel(i.app.rollouts[n].plan) }));
  return {
    app: i.app.name,
    action: describeTarget(i.target, i.transition),
    target: i.target.kind === 'step' ? `step-${i.target.step}` : i.target.kind,
    step: i.target.kind === 'step' ? i.target.step : null,
    steps,
    phase: first ? describePhase(renderPhaseOf(first), first.steps, stepNames(i, first.name)) : 'stable only',
    revision: first?.canaryRevision ?? first?.stableRevision ?? '',
    stableRevision: first?.stableRevision ?? '',
    base: i.base,
    branch: i.branch,
    output: i.output,
    rollouts,
    gate: {
      kind: i.gate.kind,
      seconds: i.gate.kind === 'timed' ? i.gate.seconds : null,
      text: gateText(i.gate, i.base),
    },
    mergeEffect: blueGreenEffect(i.target, i.transition.stepNames) ?? mergeEffect(i, rollouts),
    changes: rolloutChanges(i.app, i.transition, i.before, i.track),
    changeVerb: i.target.kind === 'abort' || i.target.kind === 'revert' ? 'Aborting' : 'Rolling out',
    sourceCommit: i.sourceCommit ?? null,
    next: nextStep(i),
    abort: abortPath(i.app.name, i.target, i.links),
    files: i.files,
    warnings: sortDiagnostics(i.app.diagnostics.filter((d) => d.severity === 'warning')).map(
      (d) => `${d.file}:${d.line}:${d.col}: ${d.message}`,
    ),
  };
}

function rolloutView(
  name: string,
  replicas: number,
  steps: readonly PlannedStep[],
  phase: ReturnType<typeof renderPhaseOf>,
  pingPong = false,
): Omit<RolloutView, 'strategy'> {
  const step = phase.kind === 'step' || phase.kind === 'promoting' ? steps[phase.step - 1] : undefined;
  // Ping-pong promotion: every request to the canary's Service, the canary at full size.
  if (pingPong && phase.kind === 'promoting')
    return { name, canaryReplicas: replicas, stableReplicas: replicas, traffic: '100%', matches: '-', bar: bar(1) };
  // Draining: no traffic, but the canary pods still run until the next PR removes them.
  const idle = phase.kind === 'draining' ? (steps[phase.step - 1]?.canaryReplicas ?? 0) : 0;
  if (!step) return { name, canaryReplicas: idle, stableReplicas: replicas, traffic: '0%', matches: '-', bar: bar(0) };
  const t = step.traffic;
  const traffic = trafficLabel(step);
  const share =
    traffic === BY_PODS
      ? step.canaryReplicas / Math.max(1, step.canaryReplicas + step.stableReplicas)
      : traffic === ALL_TRAFFIC
        ? 1
        : t.weight / t.weightTotal;
  return {
    name,
    canaryReplicas: step.canaryReplicas,
    stableReplicas: phase.kind === 'promoting' ? replicas : step.stableReplicas,
    traffic,
    matches: matches(t, step.providerMatches),
    bar: bar(share),
  };
}

export function bar(canaryShare: number): string {
  const cells = 20;
  const canary = Math.round(Math.min(1, Math.max(0, canaryShare)) * cells);
  const pct = Math.round(canaryShare * 1000) / 10;
  return `${'█'.repeat(cells - canary)}${'░'.repeat(canary)} ${Math.round((100 - pct) * 10) / 10}% / ${pct}%`;
}

function gateText(gate: Gate, base: string): string {
  switch (gate.kind) {
    case 'manual':
      return 'manual: merging this PR is the approval; rollgen never merges it.';
    case 'timed':
      return `${describeGate(gate)}: rollgen merges this PR ${gate.seconds}s after the previous step reached ${base}, once the required checks are green.`;
    case 'automatic':
      return 'automatic: rollgen merges this PR once the required checks are green.';
  }
}
