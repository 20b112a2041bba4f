import { StateError } from '../errors';
import { RenderPhase } from '../render/phase';
import { RolloutStatus } from './status';
import { otherSide } from '../model/rollout';

/** A transition and what to call it in history, PR titles and messages. */
export interface Transition {
  readonly status: RolloutStatus;
  readonly action: string;
}

/**
 * How canary workloads leave. one-commit: routes and workloads in the same commit (Argo CD orders
 * them by sync wave). two-commits: routes leave first and the workloads go with the next advance,
 * for engines without a delete order across objects (Flux).
 */
export type Removal = 'one-commit' | 'two-commits';

/**
 * The next state of one rollout for `advance`: first deploy (adopt), finish adoption, start on a new
 * template, one step, promote, clean up, finish a drain. Undefined when there is nothing to do. Pure.
 */
/** The steps a fleet wave runs of its rollout (docs/fleet.md): some of them, or none (a straight promotion). */
export type StepSubset = readonly number[] | 'promote';

export function advanceRollout(
  current: RolloutStatus | undefined,
  name: string,
  revision: string,
  steps: number,
  removal: Removal = 'one-commit',
  pingPong = false,
  switchStep?: number,
  only?: StepSubset,
): Transition | undefined {
  if (!current) {
    // As Argo: after the first deploy the ping Service is stable.
    const side = pingPong ? { pingPong: 'ping' as const } : {};
    return {
      status: { name, phase: 'Adopting', step: 0, steps, stableRevision: revision, ...side },
      action: 'first deploy',
    };
  }
  const c = { ...current, steps };
  if (c.draining !== undefined) return { status: undrained(c), action: 'remove canary workloads' };
  const t = nextOf(c, name, revision, switchStep, only);
  return t && removal === 'two-commits' ? drainFirst(c, t) : t;
}

function nextOf(
  c: RolloutStatus,
  name: string,
  revision: string,
  switchStep?: number,
  only?: StepSubset,
): Transition | undefined {
  switch (c.phase) {
    case 'Adopting':
      return { status: { ...c, phase: 'Healthy' }, action: 'select pods by track label' };
    case 'Healthy':
      return revision === c.stableRevision ? undefined : start(c, revision, 'start', only);
    case 'Aborted':
      if (revision === c.stableRevision)
        return { status: { ...withoutCanary(c), phase: 'Healthy' }, action: 'source reverted to stable' };
      return revision === c.canaryRevision ? undefined : start(c, revision, 'start', only);
    case 'Progressing':
      return progress(c, revision, switchStep, only);
    case 'Promoting':
      return finishPromotion(c, name, revision);
  }
}

/**
 * Clean-up after promotion. The stable Deployment already runs the promoted revision, so it is
 * stable whatever the source holds now: a revision that arrived during promotion starts at step 1
 * against it with the next advance. Kruise finishes Finalising before a new revision starts, and
 * Argo has made the promoted ReplicaSet stable (promoteStable) by then; starting in this commit
 * instead could move ping-pong's live traffic onto pods that are not ready.
 */
function finishPromotion(c: RolloutStatus, name: string, revision: string): Transition {
  const promoted = c.canaryRevision;
  if (!promoted)
    throw new StateError(
      `rollout ${name} is Promoting but its status records no canaryRevision; restore rollgen-status.yaml from git history`,
    );
  const waiting = revision === promoted ? '' : `; revision ${revision} starts at step 1 next`;
  return {
    status: { ...withoutCanary(c), phase: 'Healthy', step: 0, stableRevision: promoted, ...swapped(c) },
    action: `clean up${waiting}`,
  };
}

function progress(c: RolloutStatus, revision: string, switchStep?: number, only?: StepSubset): Transition {
  if (revision === c.stableRevision)
    return { status: { ...withoutCanary(c), phase: 'Healthy', step: 0 }, action: 'rollback: source back to stable' };
  // Argo blue-green: from the switch on, the active Service serves the canary revision, which Argo marks
  // stable (shouldFullPromote); a newer revision is previewed against it, never against the old one.
  if (revision !== c.canaryRevision && activeServesCanary(c, switchStep))
    return { status: { ...c, phase: 'Promoting' }, action: `promote before revision ${revision}` };
  if (revision !== c.canaryRevision) return start(c, revision, 'restart with new revision', only);
  const next = nextStepOf(c.step, c.steps, only);
  if (next !== undefined) return { status: { ...c, step: next }, action: `step ${next}` };
  return { status: { ...c, phase: 'Promoting' }, action: 'promote' };
}

/** The step after `step` (of `steps`) the wave runs, or undefined when promotion is next. */
function nextStepOf(step: number, steps: number, only?: StepSubset): number | undefined {
  if (only === 'promote') return undefined;
  const next = only ? only.find((n) => n > step && n <= steps) : step + 1;
  return next !== undefined && next <= steps ? next : undefined;
}

/** Argo blue-green: the step whose commit moves the active Service to the new version (1-based), if any. */
export function switchStepOf(steps: readonly { readonly switched?: boolean }[]): number | undefined {
  const i = steps.findIndex((s) => s.switched === true);
  return i >= 0 ? i + 1 : undefined;
}

/** The active Service selects the canary's pods: a blue-green rollout at or after its switch step. */
export function activeServesCanary(c: RolloutStatus | undefined, switchStep: number | undefined): boolean {
  return c?.phase === 'Progressing' && c.draining === undefined && switchStep !== undefined && c.step >= switchStep;
}

function start(current: RolloutStatus, revision: string, action = 'start', only?: StepSubset): Transition {
  const c = notAborted(current);
  // A canary with no steps (Argo's rolling-update form) goes straight to promotion, as Argo does;
  // so does a fleet wave that promotes the revision the earlier waves proved.
  const first = nextStepOf(0, c.steps, only);
  if (first === undefined) {
    const why = c.steps === 0 ? 'no steps' : only === 'promote' ? 'wave steps: promote' : 'no wave step left';
    return { status: { ...c, phase: 'Promoting', step: 0, canaryRevision: revision }, action: `promote (${why})` };
  }
  return { status: { ...c, phase: 'Progressing', step: first, canaryRevision: revision }, action };
}

function notAborted(c: RolloutStatus): RolloutStatus {
  const { abortedStep: _dropped, ...rest } = c;
  return rest;
}

/** Ping-pong: the Service that served the canary is stable after promotion. */
function swapped(c: RolloutStatus): Pick<RolloutStatus, 'pingPong'> {
  return c.pingPong ? { pingPong: otherSide(c.pingPong) } : {};
}

function withoutCanary(c: RolloutStatus): RolloutStatus {
  const { canaryRevision: _dropped, ...rest } = notAborted(c);
  return rest;
}

function undrained(c: RolloutStatus): RolloutStatus {
  const { draining: _dropped, drainingPromotion: _promotion, ...rest } = c;
  return rest;
}

/** The step whose canary workloads are live in `c`, if any. */
function liveCanaryStep(c: RolloutStatus): number | undefined {
  if (c.phase === 'Progressing' && c.step > 0) return c.step;
  if (c.phase === 'Promoting') return Math.max(1, c.step);
  return undefined;
}

/** Two-commit removal: a transition that drops a live canary first only moves the routes, keeping the workloads one more commit. */
function drainFirst(from: RolloutStatus, t: Transition): Transition {
  const live = liveCanaryStep(from);
  if (live === undefined || liveCanaryStep(t.status) !== undefined) return t;
  const promotion = from.phase === 'Promoting' ? { drainingPromotion: true } : {};
  return {
    status: { ...t.status, draining: live, ...promotion },
    action: `${t.action}: routes to stable (canary workloads next)`,
  };
}

/** Routes back to stable and canary removed; held until the source changes or `retry`. */
export function abortRollout(c: RolloutStatus, removal: Removal = 'one-commit'): Transition {
  if (c.phase !== 'Progressing')
    throw new StateError(`rollout ${c.name} is ${c.phase}; only a progressing rollout can be aborted`);
  const reached = c.step > 0 ? { abortedStep: c.step } : {};
  const t: Transition = { status: { ...c, phase: 'Aborted', step: 0, ...reached }, action: 'abort' };
  return removal === 'two-commits' ? drainFirst(c, t) : t;
}

/** One step ignoring the gate; with `full`, straight to promotion keeping the current traffic. */
export function promoteRollout(c: RolloutStatus, full: boolean, only?: StepSubset): Transition {
  if (c.phase !== 'Progressing')
    throw new StateError(`rollout ${c.name} is ${c.phase}; only a progressing rollout can be promoted`);
  // A fleet target goes to the next step its wave runs, as advance does (docs/fleet.md).
  const next = full ? undefined : nextStepOf(c.step, c.steps, only);
  if (next === undefined) return { status: { ...c, phase: 'Promoting' }, action: full ? 'promote --full' : 'promote' };
  return { status: { ...c, step: next }, action: `step ${next} (promoted)` };
}

/** An aborted rollout starts again at step 1 with the same revision. */
export function retryRollout(c: RolloutStatus): Transition {
  if (c.phase !== 'Aborted' || !c.canaryRevision)
    throw new StateError(`rollout ${c.name} is ${c.phase}; only an aborted rollout can be retried`);
  return { status: { ...notAborted(undrained(c)), phase: 'Progressing', step: 1 }, action: 'retry' };
}

export function renderPhaseOf(s: RolloutStatus | undefined): RenderPhase {
  if (!s) return { kind: 'stable' };
  if (s.draining !== undefined)
    return { kind: 'draining', step: s.draining, ...(s.drainingPromotion ? { promotion: true } : {}) };
  switch (s.phase) {
    case 'Adopting':
      return { kind: 'adopting' };
    case 'Progressing':
      return { kind: 'step', step: s.step };
    case 'Promoting':
      return { kind: 'promoting', step: Math.max(1, s.step), ...(s.pingPong ? { pingPong: true } : {}) };
    default:
      return { kind: 'stable' };
  }
}
