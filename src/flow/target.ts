import { Gate } from '../model/plan';
import { AppCommand, AppTransition } from '../state/app-state';
import { AppStatus, RolloutStatus } from '../state/status';
import type { LoadedApp } from '../spec/loaded-app';
import { Target } from './branch';

/**
 * What a transition proposes, named for the branch: read from the phases before and after rather
 * than from the action words, so a rewording of lifecycle messages never renames branches. When the
 * rollouts of an app move differently (one promotes while a longer one takes a step), the one
 * furthest behind names the PR. Pure.
 */
export function targetOf(previous: AppStatus | undefined, t: AppTransition, command: AppCommand): Target {
  const targets = movingTargets(previous, t).map((m) => m.target);
  // Only disabled rollouts moved (Kruise spec.disabled): their Deployments update as written.
  if (targets.length === 0) return t.actions.length > 0 ? { kind: 'update' } : { kind: 'adopt' };
  if (command.kind === 'abort' || command.kind === 'retry') return { kind: command.kind };
  return furthestBehind(targets);
}

/** Of several things proposed together, the one furthest behind names the PR. */
export function furthestBehind(targets: readonly Target[]): Target {
  return targets.reduce((a, b) => (rank(b) < rank(a) ? b : a));
}

const ORDER: readonly Target['kind'][] = [
  'adopt',
  'select',
  'step',
  'promote',
  'cleanup',
  'revert',
  'remove',
  'abort',
  'retry',
  'update',
];

function rank(t: Target): number {
  return ORDER.indexOf(t.kind) * 1e6 + (t.kind === 'step' ? t.step : 0);
}

/** Each rollout that moves in `t`, with what it alone proposes. */
function movingTargets(
  previous: AppStatus | undefined,
  t: AppTransition,
): { name: string; target: Target; prev?: RolloutStatus }[] {
  return t.status.rollouts
    .filter((r) => t.actions.some((a) => a.rollout === r.name))
    .map((next) => {
      const prev = previous?.rollouts.find((r) => r.name === next.name);
      return { name: next.name, target: rolloutTarget(prev, next), ...(prev ? { prev } : {}) };
    });
}

function rolloutTarget(prev: RolloutStatus | undefined, next: RolloutStatus): Target {
  // The second half of a two-commit removal: routes left the canary in the previous commit, now its workloads go.
  if (prev?.draining !== undefined && next.draining === undefined) return { kind: 'remove' };
  switch (next.phase) {
    case 'Adopting':
      return { kind: 'adopt' };
    case 'Progressing':
      return { kind: 'step', step: next.step };
    case 'Promoting':
      return { kind: 'promote' };
    case 'Aborted':
      return { kind: 'abort' };
    case 'Healthy':
      if (prev?.phase === 'Adopting') return { kind: 'select' };
      return prev?.phase === 'Promoting' ? { kind: 'cleanup' } : { kind: 'revert' };
  }
}

/**
 * What must pass before the flow's PR may land, per rollout that moves, from what that rollout
 * itself proposes: the start gate before step 1, the gate after step k-1 before step k, the last
 * step's gate before promotion. Clean-up, removing drained canary workloads, the selector switch of
 * an adoption (but for Argo apps: selectWaitsForPerson) and a revert of the source follow by
 * themselves; taking an app under rollgen (adopt) waits for a person.
 */
export function gateFor(
  app: LoadedApp,
  previous: AppStatus | undefined,
  t: AppTransition,
  startedBy: 'pr' | 'person' = 'pr',
): Gate {
  const moving = movingTargets(previous, t);
  // A plain update of a disabled rollout's Deployment has no canary to watch: a person merges it.
  if (moving.length === 0 && t.actions.length > 0) return { kind: 'manual' };
  const gates = moving.map(({ name, target, prev }) => {
    const r = app.rollouts.find((x) => x.spec.name === name);
    // Removing the canary workloads an abort left running waits for the abort delay (Argo abortScaleDownDelaySeconds).
    if (r?.plan.abortGate && target.kind === 'remove' && prev?.phase === 'Aborted') return r.plan.abortGate;
    // Locally the person running `advance` is the approval a start (or adoption) PR waits for.
    const from = stepBefore(
      prev,
      t.status.rollouts.find((x) => x.name === name),
    );
    const starts = (target.kind === 'step' && target.step <= 1) || (from === 0 && target.kind === 'step');
    if (startedBy === 'person' && (target.kind === 'adopt' || starts || (target.kind === 'promote' && from === 0)))
      return { kind: 'automatic' as const };
    if (!r) return { kind: 'manual' as const };
    // Locally the person running `advance --commit` at the switch is the confirmation the PR waits for.
    if (target.kind === 'select' && selectWaitsForPerson(r) && startedBy === 'pr') return { kind: 'manual' as const };
    const delayed = removalGate(r, prev, target);
    return (
      delayed ??
      rolloutGate(
        r.plan.startGate,
        r.plan.steps.map((s) => s.gate),
        target,
        from,
      )
    );
  });
  return combineGates(gates);
}

/**
 * The selector switch of an Argo app waits for a person. The Argo controller adds
 * `rollouts-pod-template-hash` to the live Services' selectors, where git cannot see it and apply
 * keeps it; switched to the track label before a person removes it (docs/migration.md), a
 * Service would select no pod. Merging the switch is that person's word that the key is gone.
 */
export function selectWaitsForPerson(r: LoadedApp['rollouts'][number]): boolean {
  return r.spec.format === 'argo';
}

/**
 * Removal delays (Argo scaleDownDelaySeconds / abortScaleDownDelaySeconds, Kruise gracePeriodSeconds):
 * the commit that removes drained canary workloads waits, and with ping-pong so does the clean-up
 * that replaces the old stable pods. Undefined: the usual gate.
 */
function removalGate(
  r: LoadedApp['rollouts'][number],
  prev: RolloutStatus | undefined,
  target: Target,
): Gate | undefined {
  const gates = r.spec.removalGates;
  if (!gates) return undefined;
  // Ping-pong waits at the clean-up instead: the canary it then removes is still serving until the stable pods join.
  if (target.kind === 'remove')
    return prev?.drainingPromotion ? (r.spec.pingPong ? undefined : gates.promotion) : gates.abort;
  if (target.kind === 'cleanup' && r.spec.pingPong) return gates.promotion;
  return undefined;
}

/** The step the rollout is at before this move, 0 when the move starts its revision (a fleet wave may start past step 1). */
function stepBefore(prev: RolloutStatus | undefined, next: RolloutStatus | undefined): number {
  return prev?.phase === 'Progressing' && prev.canaryRevision === next?.canaryRevision ? prev.step : 0;
}

/**
 * The gate before `target`: the pause after the step the rollout leaves (`from`), the start gate
 * when it starts. A fleet wave running some steps only (docs/fleet.md) may leave step 1 for step 3,
 * or promote straight from stable.
 */
function rolloutGate(start: Gate, after: readonly Gate[], target: Target, from: number): Gate {
  switch (target.kind) {
    case 'step':
      if (target.step <= 1 || from === 0) return start;
      return after[(from !== target.step - 1 ? from : target.step - 1) - 1] ?? { kind: 'manual' };
    case 'promote':
      // (a rollout without steps, Argo's rolling-update form, promotes as it always has)
      if (from === 0 && after.length > 0) return start;
      return after[after.length - 1] ?? { kind: 'automatic' };
    case 'cleanup':
    case 'select':
    case 'revert':
    case 'remove':
      return { kind: 'automatic' };
    default:
      return { kind: 'manual' };
  }
}

/** Rollouts of one app move in lock-step, so the strictest gate wins: manual, then the longest wait. */
export function combineGates(gates: readonly Gate[]): Gate {
  if (gates.some((g) => g.kind === 'manual')) return { kind: 'manual' };
  const timed = gates.flatMap((g) => (g.kind === 'timed' ? [g.seconds] : []));
  return timed.length > 0 ? { kind: 'timed', seconds: Math.max(...timed) } : { kind: 'automatic' };
}

export const BASE_LABEL = 'rollgen';

/** `rollgen` marks every PR; `rollgen:<gate>` tells manual, timed and automatic steps apart. Sorted. */
export function labelsFor(gate: Gate, extra: readonly string[]): string[] {
  return [...new Set([BASE_LABEL, `${BASE_LABEL}:${gate.kind}`, ...extra])].sort();
}
