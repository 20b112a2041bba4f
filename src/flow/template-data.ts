import { sortDiagnostics } from '../diagnostics';
import { describeGate } from '../plan/gates';
import { matches } from '../plan/format';
import { Gate, PlannedStep } from '../model/plan';
import { describePhase } from '../render/phase';
import { AppTransition } from '../state/app-state';
import { renderPhaseOf } from '../state/lifecycle';
import type { LoadedApp } from '../spec/loaded-app';
import { Target } from './branch';
import { describeTarget } from './describe';

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
  readonly files: readonly { readonly path: string; readonly change: 'added' | 'modified' | 'deleted' }[];
  /** What rollgen read past in the app's specs (field ledger warnings), `file:line:col: message`, for the reviewer. */
  readonly warnings: readonly string[];
}

export interface RolloutView {
  readonly name: string;
  readonly canaryReplicas: number;
  readonly stableReplicas: number;
  /** `20%`, `40/1000`, or `by pods` when Services share both tracks. */
  readonly traffic: string;
  readonly matches: string;
  /** Stable (`█`) against canary (`░`) share in 20 cells, with the percentages. */
  readonly bar: string;
}

export interface TemplateInput {
  readonly app: LoadedApp;
  readonly transition: AppTransition;
  readonly target: Target;
  readonly gate: Gate;
  readonly base: string;
  readonly branch: string;
  readonly output: string;
  readonly files: PrTemplateData['files'];
}

/** The data of one PR's templates. Pure and deterministic: no clock, so an unchanged PR stays unchanged. */
export function templateData(i: TemplateInput): PrTemplateData {
  const status = i.transition.status.rollouts;
  const first = status.find((s) => i.transition.actions.some((a) => a.rollout === s.name)) ?? status[0];
  const steps = Math.max(0, ...status.map((s) => s.steps));
  return {
    app: i.app.name,
    action: describeTarget(i.target, i.transition),
    target: i.target.kind === 'step' ? `step-${i.target.step}` : i.target.kind,
    step: i.target.kind === 'step' ? i.target.step : null,
    steps,
    phase: first ? describePhase(renderPhaseOf(first), first.steps) : 'stable only',
    revision: first?.canaryRevision ?? first?.stableRevision ?? '',
    stableRevision: first?.stableRevision ?? '',
    base: i.base,
    branch: i.branch,
    output: i.output,
    rollouts: i.app.rollouts.map((r) =>
      rolloutView(
        r.spec.name,
        r.plan.replicas,
        r.plan.steps,
        renderPhaseOf(status.find((s) => s.name === r.spec.name)),
      ),
    ),
    gate: {
      kind: i.gate.kind,
      seconds: i.gate.kind === 'timed' ? i.gate.seconds : null,
      text: gateText(i.gate, i.base),
    },
    mergeEffect:
      blueGreenEffect(i.target, i.transition.stepNames) ??
      mergeEffect(
        i.target,
        status.some((s) => s.draining !== undefined),
      ),
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
): RolloutView {
  const step = phase.kind === 'step' || phase.kind === 'promoting' ? steps[phase.step - 1] : undefined;
  // Draining: no traffic, but the canary pods still run until the next PR removes them.
  const idle = phase.kind === 'draining' ? (steps[phase.step - 1]?.canaryReplicas ?? 0) : 0;
  if (!step) return { name, canaryReplicas: idle, stableReplicas: replicas, traffic: '0%', matches: '-', bar: bar(0) };
  const t = step.traffic;
  const byPods = step.serviceSelection === 'shared' && t.weight === 0 && t.matches.length === 0;
  const share = byPods
    ? step.canaryReplicas / Math.max(1, step.canaryReplicas + step.stableReplicas)
    : t.weight / t.weightTotal;
  const traffic = byPods ? 'by pods' : t.weightTotal === 100 ? `${t.weight}%` : `${t.weight}/${t.weightTotal}`;
  return {
    name,
    canaryReplicas: step.canaryReplicas,
    stableReplicas: phase.kind === 'promoting' ? replicas : step.stableReplicas,
    traffic,
    matches: matches(t),
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

/** Blue-green steps say what the Services do; undefined for anything else. */
function blueGreenEffect(target: Target, names: readonly string[] | undefined): string | undefined {
  if (!names) return undefined;
  const name = target.kind === 'step' ? names[target.step - 1] : target.kind;
  switch (name) {
    case 'preview':
      return 'the new version starts beside the old one; the preview Service (if any) selects it, the active Service keeps the old version.';
    case 'switch':
      return "the new version scales to full size; once its pods are ready, the active Service's selector moves to them in this one commit.";
    case 'promote':
      return 'scale down old: your Deployment, which serves nothing now, replaces the old version with the new one; the active Service moves back to it in the clean-up.';
    default:
      return undefined;
  }
}

function mergeEffect(target: Target, draining: boolean): string {
  // removal: two-commits keeps the canary workloads one more commit, after routes have left them.
  if (draining && (target.kind === 'cleanup' || target.kind === 'revert' || target.kind === 'abort')) {
    return 'all traffic goes back to stable; the canary Deployment and Service stay until the next PR removes them.';
  }
  switch (target.kind) {
    case 'step':
      return `Argo CD or Flux applies step ${target.step}: canary pods first, then the routes shown above.`;
    case 'adopt':
      return 'the pods get the track label; Service selectors are unchanged until the next PR.';
    case 'select':
      return 'Services select pods by track label.';
    case 'promote':
      return 'the stable Deployment gets the new version while traffic stays as in the last step.';
    case 'cleanup':
      return 'routes go back to stable only and the canary objects are removed.';
    case 'revert':
    case 'abort':
      return 'all traffic goes back to stable and the canary objects are removed.';
    case 'remove':
      return 'the canary Deployment and Service, which no longer receive traffic, are removed.';
    case 'retry':
      return 'the rollout starts again at step 1.';
  }
}
