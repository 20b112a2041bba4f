import { InputError } from '../errors';
import { ResourceSet } from '../model/resource-set';
import { RolloutRenderState } from '../render/render-app';
import { TrackLabel } from '../model/track';
import type { LoadedApp, LoadedRollout } from '../spec/loaded-app';
import {
  Removal,
  Transition,
  abortRollout,
  activeServesCanary,
  advanceRollout,
  promoteRollout,
  renderPhaseOf,
  retryRollout,
  switchStepOf,
} from './lifecycle';
import { AppStatus, RolloutStatus } from './status';
import type { StepSubset } from './lifecycle';
import { sourcePod } from './pods';
import { renderState } from './render-states';

/** What the output directory holds now: the stable state. */
export interface OutputSnapshot {
  readonly status?: AppStatus;
  readonly resources: ResourceSet;
  readonly kustomization?: string;
  /** The kustomization's `resources`, as read (what kustomize applies of the output). */
  readonly listed?: readonly string[];
  /** File name -> text as read, so a write can leave files it would not change alone. */
  readonly texts?: ReadonlyMap<string, string>;
  /** Output files that carry rollgen's header: what it wrote, even when the status file is lost. */
  readonly renderedFiles?: readonly string[];
  /** Digest of every YAML file of the output as it is now, by file name. */
  readonly fileDigests?: Readonly<Record<string, string>>;
}

export type AppCommand =
  /** `only`: the steps a fleet wave runs (docs/fleet.md); the rest are skipped (by advance and promote), `promote` skips them all. */
  | { readonly kind: 'advance'; readonly only?: StepSubset }
  | { readonly kind: 'abort' }
  | { readonly kind: 'promote'; readonly full: boolean; readonly only?: StepSubset }
  | { readonly kind: 'retry' };

export interface AppTransition {
  readonly status: AppStatus;
  readonly actions: readonly { readonly rollout: string; readonly action: string }[];
  readonly states: readonly RolloutRenderState[];
  /** Blue-green: the names of the steps (index 0 = step 1) of the moving rollouts, for titles and messages. */
  readonly stepNames?: readonly string[];
}

/** What `advance` and `rollgen pr` say about each paused rollout of the app: it holds, nothing is proposed for it. */
export function holdNotes(app: LoadedApp): string[] {
  return app.rollouts
    .filter((r) => r.spec.pausedBy)
    .map(
      (r) =>
        `${app.name}/${r.spec.name}: paused by ${r.spec.pausedBy!.field}; nothing is proposed for it until that is false`,
    );
}

/** Applies a command to every rollout of the app and returns the new status and what to render. Pure. */
export function transitionApp(
  app: LoadedApp,
  output: OutputSnapshot,
  command: AppCommand,
  track: TrackLabel,
  removal: Removal = 'one-commit',
): AppTransition {
  const previous = output.status;
  const actions: { rollout: string; action: string }[] = [];
  const before = app.rollouts.map((r) =>
    withPingPong(
      r,
      previous?.rollouts.find((s) => s.name === r.spec.name),
    ),
  );
  const moved = app.rollouts.map((r, i) => {
    const t = applyCommand(command, before[i], r, track, removal);
    if (t) actions.push({ rollout: r.spec.name, action: t.action });
    return t?.status ?? before[i];
  });
  // Only advance deploys: abort, promote or retry leave a rollout that was never deployed as it is.
  const statuses = moved.filter((s): s is RolloutStatus => s !== undefined);
  if (statuses.length === app.rollouts.length) lockStep(app, before, statuses, actions);
  actions.forEach((a, i) => (actions[i] = blueGreenAction(app, a, statuses)));
  const history = [...(previous?.history ?? []), ...actions.map((a) => historyEntry(a, statuses))];
  const status: AppStatus = { app: app.name, rollouts: statuses, files: previous?.files ?? [], history };
  const states = app.rollouts.map((r, i) => renderState(r, output, renderPhaseOf(moved[i]), track, moved[i]));
  const named = app.rollouts.find(
    (r) => r.plan.steps.some((s) => s.name) && actions.some((a) => a.rollout === r.spec.name),
  );
  const stepNames = named?.plan.steps.map((s) => s.name ?? `step ${s.index}`);
  return { status, actions, states, ...(stepNames ? { stepNames } : {}) };
}

/** Blue-green actions say what the step does: `start (preview)`, `step 2 (switch)`, `promote (scale down old)`. */
function blueGreenAction(
  app: LoadedApp,
  a: { rollout: string; action: string },
  statuses: readonly RolloutStatus[],
): { rollout: string; action: string } {
  const plan = app.rollouts.find((r) => r.spec.name === a.rollout)?.plan;
  const s = statuses.find((x) => x.name === a.rollout);
  if (!plan?.blueGreen || !s || s.draining !== undefined) return a;
  const name =
    s.phase === 'Progressing' ? plan.steps[s.step - 1]?.name : s.phase === 'Promoting' ? 'scale down old' : undefined;
  return name ? { ...a, action: `${a.action} (${name})` } : a;
}

/** A rollout that has pingPong (added since its last rollout, or from the start) has ping stable until recorded otherwise. */
function withPingPong(r: LoadedRollout, s: RolloutStatus | undefined): RolloutStatus | undefined {
  if (!s) return s;
  if (r.spec.pingPong) return s.pingPong ? s : { ...s, pingPong: 'ping' };
  if (!s.pingPong) return s;
  const { pingPong: _dropped, ...rest } = s;
  return rest;
}

function applyCommand(
  command: AppCommand,
  current: RolloutStatus | undefined,
  r: LoadedRollout,
  track: TrackLabel,
  removal: Removal,
): Transition | undefined {
  const revision = sourcePod(r, track).revision;
  // A removal delay (scaleDownDelaySeconds, gracePeriodSeconds) keeps the canary workloads one more, delayed, commit.
  if (r.spec.removalGates) removal = 'two-commits';
  // A paused rollout holds: advance moves nothing; a person may still abort, promote or retry.
  if (command.kind === 'advance' && r.spec.pausedBy) return undefined;
  const changed = (command.kind === 'advance' || command.kind === 'promote') && stepsChanged(current, r, revision);
  if (changed) return changed;
  if (command.kind === 'advance')
    return advanceRollout(
      current,
      r.spec.name,
      revision,
      r.plan.steps.length,
      removal,
      r.spec.pingPong !== undefined,
      switchStepOf(r.plan.steps),
      command.only,
    );
  // Nothing deployed: nothing to abort, promote or retry; the idle message says advance deploys it.
  if (!current) return undefined;
  // Argo blue-green keeps the preview pods abortScaleDownDelaySeconds after an abort: their removal is a later commit.
  const abortRemoval = r.plan.abortGate ? 'two-commits' : removal;
  if (command.kind === 'abort')
    return current.phase === 'Progressing' ? abortRollout(current, abortRemoval) : undefined;
  // Promote and retry act on the revision the rollout runs: when the source has moved on, they would
  // render the new one at a later step (or promote it) without its earlier steps. advance restarts it.
  // Blue-green after its switch: the active Service serves the running revision, so promote promotes
  // it (the gate skipped), as advance would.
  const servesActive = command.kind === 'promote' && activeServesCanary(current, switchStepOf(r.plan.steps));
  if (revision !== current.canaryRevision && !servesActive) return undefined;
  // A retry runs the steps as they are now (they may have changed while it was aborted).
  if (command.kind === 'retry')
    return current.phase === 'Aborted' ? retryRollout({ ...current, steps: r.plan.steps.length }) : undefined;
  return current.phase === 'Progressing' ? promoteRollout(current, command.full, command.only) : undefined;
}

/**
 * Rollouts sharing a TrafficRouting move together: when one starts (or restarts on a new revision),
 * every other progressing member restarts at step 1 with it, so one state (one PR) holds the whole
 * end-to-end canary at one step.
 */
function lockStep(
  app: LoadedApp,
  before: readonly (RolloutStatus | undefined)[],
  statuses: RolloutStatus[],
  actions: { rollout: string; action: string }[],
): void {
  for (const routing of app.routings) {
    const idx = app.rollouts.map((r, i) => (routing.members.includes(r.spec.name) ? i : -1)).filter((i) => i >= 0);
    const starter = idx.find((i) => started(before[i], statuses[i]));
    if (starter === undefined) continue;
    for (const i of idx) {
      const s = statuses[i];
      // A promoting member already runs its new version as stable; it finishes rather than restarts.
      if (i === starter || started(before[i], s) || before[i]?.phase !== 'Progressing') continue;
      statuses[i] = { ...s, phase: 'Progressing', step: 1 };
      const action = `restart at step 1 in lock-step with ${app.rollouts[starter].spec.name}`;
      const existing = actions.findIndex((a) => a.rollout === s.name);
      if (existing >= 0) actions[existing] = { rollout: s.name, action };
      else actions.push({ rollout: s.name, action });
    }
  }
}

function started(before: RolloutStatus | undefined, after: RolloutStatus): boolean {
  return (
    after.phase === 'Progressing' &&
    after.step === 1 &&
    (before?.phase !== 'Progressing' || before.canaryRevision !== after.canaryRevision)
  );
}

function historyEntry(a: { rollout: string; action: string }, statuses: readonly RolloutStatus[]) {
  const s = statuses.find((x) => x.name === a.rollout)!;
  return { rollout: a.rollout, action: a.action, step: s.step, revision: s.canaryRevision ?? s.stableRevision };
}

/**
 * The number of steps changed while the rollout progresses on the same revision. Moving on by the
 * recorded step would skip the canary (2 steps left at step 3: straight to promotion). Argo starts
 * a canary whose steps changed again from its first step; Kruise refuses the change.
 */
function stepsChanged(current: RolloutStatus | undefined, r: LoadedRollout, revision: string): Transition | undefined {
  const now = r.plan.steps.length;
  if (current?.phase !== 'Progressing' || current.steps === now || revision !== current.canaryRevision) return;
  if (r.spec.format === 'argo') {
    const action = `steps changed from ${current.steps} to ${now}: ${now === 0 ? 'promote (no steps)' : 'restart at step 1'}, as Argo does`;
    const restart = now === 0 ? { phase: 'Promoting' as const, step: 0 } : { step: 1 };
    return { status: { ...current, ...restart, steps: now }, action };
  }
  throw new InputError([
    {
      ...(r.spec.steps[0]?.origin ?? r.spec.origin),
      message: `rollout ${r.spec.name} is at step ${current.step} of ${current.steps}, and its steps are now ${now}: Kruise refuses a change to the number of steps while a rollout progresses. Restore the ${current.steps} steps until it is promoted, or abort it (rollgen abort) and change them then`,
      severity: 'error',
    },
  ]);
}
