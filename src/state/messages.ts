import { describePhase } from '../render/phase';
import type { AppCommand } from './app-state';
import { renderPhaseOf } from './lifecycle';
import type { LoadedApp } from '../spec/loaded-app';
import type { AppStatus, RolloutStatus } from './status';

/** What the CLI says about one rollout's move and about a command with nothing to do. Pure. */

/** `web/demo: step 1 of 4 -> step 2 of 4` for a step, `web/demo: ACTION -> STATE` for everything else. */
export function transitionLine(
  rollout: string,
  action: string,
  before: RolloutStatus | undefined,
  after: RolloutStatus | undefined,
  steps: number,
): string {
  const to = describeState(after, steps);
  const isStep =
    before?.phase === 'Progressing' &&
    after?.phase === 'Progressing' &&
    after.step === before.step + 1 &&
    after.canaryRevision === before.canaryRevision;
  if (!isStep) return `${rollout}: ${action} -> ${to}`;
  return `${rollout}: ${describeState(before, steps)} -> ${to}${action.endsWith('(promoted)') ? ' (promoted, gate skipped)' : ''}`;
}

function describeState(s: RolloutStatus | undefined, steps: number): string {
  if (s?.phase === 'Aborted' && s.draining === undefined) return 'aborted (all traffic to stable)';
  return describePhase(renderPhaseOf(s), steps);
}

export interface IdleRollout {
  readonly name: string;
  readonly status: RolloutStatus | undefined;
  readonly steps: number;
  /** The field that pauses it (spec.paused, spec.strategy.paused): advance holds it, whatever the source says. */
  readonly pausedBy?: string;
}

/**
 * One line per rollout when `command` changes nothing: where it stands and the command that would
 * help. `target` is how the user names the app on the command line (an app name, or SOURCE OUT).
 */
export function idleLines(command: AppCommand, target: string, rollouts: readonly IdleRollout[]): string[] {
  return rollouts.map((r) => {
    const state = stateOf(r);
    const paused = command.kind === 'advance' && r.pausedBy;
    const hint = paused ? `set ${r.pausedBy} to false to go on` : hintFor(command.kind, r.status, target);
    return `nothing to ${command.kind}: ${r.name} ${state}${hint ? `; ${hint}` : ''}`;
  });
}

/** idleLines for every rollout of an app, from the status its output holds. */
export function appIdleLines(
  command: AppCommand,
  target: string,
  app: LoadedApp,
  status: AppStatus | undefined,
): string[] {
  const rollouts = app.rollouts.map((r) => ({
    name: `${app.name}/${r.spec.name}`,
    status: status?.rollouts.find((x) => x.name === r.spec.name),
    steps: r.plan.steps.length,
    ...(r.spec.pausedBy ? { pausedBy: r.spec.pausedBy.field } : {}),
  }));
  const disabled = (app.disabledRollouts ?? []).map(
    (name) =>
      `nothing to ${command.kind}: ${app.name}/${name} is disabled (spec.disabled): the output runs the source as written, with no canary`,
  );
  return [...idleLines(command, target, rollouts), ...disabled];
}

function stateOf(r: IdleRollout): string {
  const s = r.status;
  if (r.pausedBy && s) return `is paused by ${r.pausedBy} (${describeState(s, r.steps)})`;
  if (!s) return 'is not deployed yet';
  if (s.draining !== undefined) return 'is draining (routes to stable; canary workloads still in the output)';
  switch (s.phase) {
    case 'Healthy':
      return 'is healthy: the output runs the source';
    case 'Adopting':
      return 'is adopting (track label on pods)';
    case 'Aborted':
      return `is aborted: revision ${s.canaryRevision ?? '?'} is held back, all traffic on stable`;
    case 'Progressing':
      return `is progressing at step ${s.step} of ${r.steps}`;
    case 'Promoting':
      return 'is promoting: the new version is becoming stable';
  }
}

function hintFor(kind: AppCommand['kind'], s: RolloutStatus | undefined, target: string): string | undefined {
  const run = (cmd: string, what: string) => `\`rollgen ${cmd} ${target}\` ${what}`;
  if (!s) return undefined; // only advance acts on a rollout never deployed, and it always acts
  if (s.draining !== undefined || s.phase === 'Adopting' || s.phase === 'Promoting')
    return run('advance', s.phase === 'Promoting' ? 'finishes the promotion' : 'finishes that');
  if (s.phase === 'Aborted')
    return kind === 'retry' ? undefined : `${run('retry', 'restarts it at step 1')}, or change the source`;
  if (s.phase === 'Healthy') return 'change the pod template in the source to start a rollout';
  // Progressing: only advance (gate not due), retry and nothing else reach here.
  return kind === 'retry'
    ? `only an aborted rollout can be retried; ${run('promote', 'moves on without the gate')}, ${run('abort', 'stops it')}`
    : `${run('promote', 'moves on without waiting for the gate')}`;
}
