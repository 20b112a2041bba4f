import { Gate } from '../plan/types';
import { AppCommand, AppTransition } from '../state/app-state';
import { AppStatus, RolloutStatus } from '../state/status';
import { LoadedApp } from '../spec/load-app';
import { Target } from './branch';

/**
 * What a transition proposes, named for the branch: read from the phases before and after rather
 * than from the action words, so a rewording of lifecycle messages never renames branches. Pure.
 */
export function targetOf(previous: AppStatus | undefined, t: AppTransition, command: AppCommand): Target {
  const name = t.actions[0]?.rollout;
  const next = t.status.rollouts.find((r) => r.name === name);
  const prev = previous?.rollouts.find((r) => r.name === name);
  if (!next) return { kind: 'adopt' };
  if (command.kind === 'abort' || command.kind === 'retry') return { kind: command.kind };
  return phaseTarget(prev, next);
}

function phaseTarget(prev: RolloutStatus | undefined, next: RolloutStatus): Target {
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
 * What must pass before the PR of `target` may land, per rollout that moves: the start gate before
 * step 1, the gate after step k-1 before step k, the last step's gate before promotion. Clean-up,
 * the selector switch of an adoption and a revert of the source follow by themselves; taking an app
 * under rollgen (adopt) and commands (abort, retry) wait for a person.
 */
export function gateFor(app: LoadedApp, t: AppTransition, target: Target): Gate {
  const moving = app.rollouts.filter((r) => t.actions.some((a) => a.rollout === r.spec.name));
  return combineGates(moving.map((r) => rolloutGate(r.plan.startGate, r.plan.steps.map((s) => s.gate), target)));
}

function rolloutGate(start: Gate, after: readonly Gate[], target: Target): Gate {
  switch (target.kind) {
    case 'step':
      return target.step <= 1 ? start : after[target.step - 2] ?? { kind: 'manual' };
    case 'promote':
      return after[after.length - 1] ?? { kind: 'automatic' };
    case 'cleanup':
    case 'select':
    case 'revert':
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
