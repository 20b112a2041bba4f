import { describePhase } from '../render/phase';
import type { AppCommand } from './app-state';
import { sourcePod } from './pods';
import type { TrackLabel } from '../model/track';
import { activeServesCanary, renderPhaseOf, switchStepOf } from './lifecycle';
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
  names: readonly (string | undefined)[] = [],
): string {
  const to = describeState(after, steps, names);
  const isStep =
    before?.phase === 'Progressing' &&
    after?.phase === 'Progressing' &&
    after.step === before.step + 1 &&
    after.canaryRevision === before.canaryRevision;
  if (!isStep) return `${rollout}: ${action} -> ${to}`;
  return `${rollout}: ${describeState(before, steps, names)} -> ${to}${action.endsWith('(promoted)') ? ' (promoted, gate skipped)' : ''}`;
}

function describeState(s: RolloutStatus | undefined, steps: number, names: readonly (string | undefined)[]): string {
  if (s?.phase === 'Aborted' && s.draining === undefined) return 'aborted (all traffic to stable)';
  return describePhase(renderPhaseOf(s), steps, names);
}

export interface IdleRollout {
  readonly name: string;
  readonly status: RolloutStatus | undefined;
  readonly steps: number;
  /** The source's pod template differs from what the output runs (or holds back): advance starts it. */
  readonly sourceChanged?: boolean;
  /** Blue-green at or after its switch: the active Service serves the running revision, promoted before a newer one. */
  readonly activeServesCanary?: boolean;
  /** The field that pauses the rollout in its spec (advance proposes nothing while it is set). */
  readonly heldBy?: string;
}

/**
 * One line per rollout when `command` changes nothing: where it stands and the command that would
 * help. `target` is how the user names the app on the command line (an app name, or SOURCE OUT).
 */
export function idleLines(command: AppCommand, target: string, rollouts: readonly IdleRollout[]): string[] {
  return rollouts.map((r) => {
    const state = stateOf(r);
    const hint = hintFor(command.kind, r, target);
    return `nothing to ${command.kind}: ${r.name} ${state}${hint ? `; ${hint}` : ''}`;
  });
}

/** idleLines for every rollout of an app, from the status its output holds. */
export function appIdleLines(
  command: AppCommand,
  target: string,
  app: LoadedApp,
  status: AppStatus | undefined,
  track: TrackLabel,
): string[] {
  const rollouts = app.rollouts.map((r) => {
    const s = status?.rollouts.find((x) => x.name === r.spec.name);
    const revision = sourcePod(r, track).revision;
    return {
      name: `${app.name}/${r.spec.name}`,
      status: s,
      steps: r.plan.steps.length,
      sourceChanged: s !== undefined && revision !== (s.canaryRevision ?? s.stableRevision),
      activeServesCanary: activeServesCanary(s, switchStepOf(r.plan.steps)),
      ...(r.spec.pausedBy ? { heldBy: r.spec.pausedBy.field } : {}),
    };
  });
  const disabled = (app.disabledRollouts ?? []).map(
    (name) =>
      `nothing to ${command.kind}: ${app.name}/${name} is disabled (spec.disabled): the output runs the source as written, with no canary`,
  );
  return [...idleLines(command, target, rollouts), ...disabled];
}

function stateOf(r: IdleRollout): string {
  const s = r.status;
  if (!s) return 'is not deployed yet';
  if (r.heldBy && s.phase === 'Progressing')
    return `is held at step ${s.step} of ${r.steps}: paused by ${r.heldBy}, advance proposes nothing`;
  if (r.heldBy) return `is held: paused by ${r.heldBy}, advance proposes nothing`;
  if (s.draining !== undefined) return 'is draining (routes to stable; canary workloads still in the output)';
  switch (s.phase) {
    case 'Healthy':
      return r.sourceChanged
        ? 'is healthy and the source has a new pod template, not started yet'
        : 'is healthy: the output runs the source';
    case 'Adopting':
      return 'is adopting (track label on pods)';
    case 'Aborted':
      return `is aborted: revision ${s.canaryRevision ?? '?'} is held back, all traffic on stable${r.sourceChanged ? '; the source has a newer one' : ''}`;
    case 'Progressing':
      return r.sourceChanged
        ? `is progressing at step ${s.step} of ${r.steps} with revision ${s.canaryRevision ?? '?'}, and the source has a newer one`
        : `is progressing at step ${s.step} of ${r.steps}`;
    case 'Promoting':
      return `is promoting: the new version is becoming stable${r.sourceChanged ? '; the source has a newer one, which starts at step 1 after the clean-up' : ''}`;
  }
}

function hintFor(kind: AppCommand['kind'], r: IdleRollout, target: string): string | undefined {
  const s = r.status;
  const run = (cmd: string, what: string) => `\`rollgen ${cmd} ${target}\` ${what}`;
  if (!s) return run('advance', 'deploys it first (adopts the Deployment)');
  if (r.heldBy)
    return s.phase === 'Progressing'
      ? `set ${r.heldBy} to false to go on; ${run('promote', 'moves it by hand')}, ${run('abort', 'stops it')}`
      : `set ${r.heldBy} to false to go on`;
  if (s.draining !== undefined || s.phase === 'Adopting' || s.phase === 'Promoting')
    return run('advance', s.phase === 'Promoting' ? 'finishes the promotion' : 'finishes that');
  if (s.phase === 'Aborted') {
    if (r.sourceChanged) return run('advance', 'starts the new revision at step 1');
    return kind === 'retry' ? undefined : `${run('retry', 'restarts it at step 1')}, or change the source`;
  }
  if (s.phase === 'Healthy')
    return r.sourceChanged
      ? run('advance', 'starts the rollout at step 1')
      : 'change the pod template in the source to start a rollout';
  // Progressing: advance (gate not due), retry, and promote of a revision the source has left.
  if (r.sourceChanged && r.activeServesCanary)
    return `${run('advance', 'promotes it (the active Service serves it), then starts the new revision against it')}, ${run('abort', 'stops it')}`;
  if (r.sourceChanged)
    return `${run('advance', 'restarts it at step 1 with the new revision')}, ${run('abort', 'stops it')}`;
  return kind === 'retry'
    ? `only an aborted rollout can be retried; ${run('promote', 'moves on without the gate')}, ${run('abort', 'stops it')}`
    : `${run('promote', 'moves on without waiting for the gate')}`;
}
