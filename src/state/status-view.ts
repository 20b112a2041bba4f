import { Plan, PlannedStep, TrafficState } from '../model/plan';
import { matches as describeMatches } from '../plan/format';
import { RolloutStatus } from './status';
import { gateView, promotesFirst, signalHold, sourceChanged } from './status-gate';
import { commandsFor } from './status-next';
import { GateView, RolloutView, StatusInput, TrafficView, ViewPhase } from './status-types';

export type * from './status-types';

/**
 * `rollgen status` as plain data: where one rollout stands, what runs, what gate holds the next
 * move and the command that makes it. Built from what the edges read (the status file, the
 * rendered Deployments, git dates, GitHub); every function here is pure, `now` is given.
 */
export function rolloutView(i: StatusInput): RolloutView {
  const s = i.status;
  const live = liveStep(s);
  const step = live !== undefined ? i.plan.steps[live - 1] : undefined;
  const gate = gateView(i);
  const phase = phaseOf(i, gate);
  const { next, others } = commandsFor(phase, i, gate);
  const w = i.workloads;
  return {
    app: i.app,
    rollout: i.plan.rollout,
    namespace: i.namespace ?? null,
    phase,
    message: messageFor(phase, i, gate),
    strategy: {
      format: i.plan.format,
      name: i.plan.strategy,
      pingPong: i.plan.pingPong !== undefined,
      style: i.plan.style,
      blueGreen: i.plan.blueGreen === true,
      providers: i.plan.providers,
    },
    step: live ?? null,
    stepName: step?.name ?? null,
    steps: i.plan.steps.length,
    traffic: s ? trafficOf(i.plan, s.draining === undefined ? step : undefined, pingPongPromotion(i)) : null,
    replicas: replicasOf(i, s?.draining === undefined ? step : undefined),
    // What runs is read from the rendered Deployments, so every field tells the same state (promotion
    // moves the new revision onto the stable Deployment before the status records it as stable).
    revisions: {
      stable: s ? (w.stable?.revision ?? s.stableRevision) : null,
      canary: s && w.canary ? (w.canary.revision ?? s.canaryRevision ?? null) : null,
      source: i.sourceRevision,
    },
    images: {
      stable: s ? (w.stable?.images ?? null) : null,
      canary: s ? (w.canary?.images ?? null) : null,
      source: i.sourceImages,
    },
    aborted: abortedOf(i),
    sourceChanged: sourceChanged(i),
    gate,
    signals: i.signals,
    github: i.github,
    mode: i.mode,
    next,
    otherCommands: others,
    drift: i.drift,
  };
}

/** The step whose traffic is live: the step while progressing, the last step's traffic while promoting. */
function liveStep(s: RolloutStatus | undefined): number | undefined {
  if (!s) return undefined;
  if (s.draining !== undefined) return undefined;
  if (s.phase === 'Progressing' && s.step > 0) return s.step;
  if (s.phase === 'Promoting') return Math.max(1, s.step);
  return undefined;
}

/** Ping-pong promotion sends every request to the canary's Service (render-rollout.ts), whatever the last step sent. */
function pingPongPromotion(i: StatusInput): boolean {
  return i.plan.pingPong !== undefined && i.status?.phase === 'Promoting' && i.status.draining === undefined;
}

/** The revision an abort held back, the step it had reached and its images while they are known. */
function abortedOf(i: StatusInput): RolloutView['aborted'] {
  const s = i.status;
  if (s?.phase !== 'Aborted' || !s.canaryRevision) return null;
  // Two-commit removal keeps its canary Deployment one more commit; after that the source holds it until it changes.
  const images =
    i.workloads.canary?.revision === s.canaryRevision
      ? i.workloads.canary.images
      : i.sourceRevision === s.canaryRevision
        ? i.sourceImages
        : null;
  return { revision: s.canaryRevision, step: s.abortedStep ?? s.draining ?? null, images };
}

function trafficOf(plan: Plan, step: PlannedStep | undefined, allToCanary = false): TrafficView {
  const shared = plan.trafficRouting;
  const base = {
    sharedRouting: shared
      ? { name: shared.name, weight: shared.traffic.weight, matches: matchesOf(shared.traffic) }
      : null,
  };
  if (allToCanary) return { weight: 100, weightTotal: 100, byPods: false, matches: null, mirror: null, ...base };
  if (!step) return { weight: 0, weightTotal: 100, byPods: false, matches: null, mirror: null, ...base };
  const t = step.traffic;
  const byPods = step.serviceSelection === 'shared' && t.weight === 0 && t.matches.length === 0;
  const mirror = t.mirrorRoutes.map((m) => `${m.name} ${m.percentage}%`).join(', ');
  return {
    weight: t.weight,
    weightTotal: t.weightTotal,
    byPods,
    matches: matchesOf(t, step.providerMatches),
    mirror: mirror || null,
    ...base,
  };
}

function matchesOf(t: TrafficState, more?: PlannedStep['providerMatches']): string | null {
  const text = describeMatches(t, more);
  return text === '-' ? null : text;
}

/** The replicas of the rendered Deployments; the plan's where the output has none yet. */
function replicasOf(i: StatusInput, step: PlannedStep | undefined): RolloutView['replicas'] {
  const desired = i.plan.replicas;
  const { stable, canary } = i.workloads;
  if (i.status && stable) return { desired, stable: stable.replicas, canary: canary?.replicas ?? 0 };
  if (!step) return { desired, stable: desired, canary: 0 };
  return { desired, stable: step.stableReplicas, canary: step.canaryReplicas };
}

function phaseOf(i: StatusInput, gate: GateView | null): ViewPhase {
  const s = i.status;
  if (i.plan.pausedBy) return 'Held';
  if (!s) return 'NotDeployed';
  if (s.draining !== undefined) return 'Draining';
  if (s.phase !== 'Progressing') return s.phase;
  if (sourceChanged(i) && !promotesFirst(i)) return 'Progressing';
  // As Argo's plugin shows a pause step: the next step waits for a person or for time (not for health or analysis).
  const waitsForTime = gate?.kind === 'timed' && (gate.remaining === null || gate.remaining > 0);
  return gate && !gate.passed && (gate.kind === 'manual' || waitsForTime) && !signalHold(i.signals)
    ? 'Paused'
    : 'Progressing';
}

function messageFor(phase: ViewPhase, i: StatusInput, gate: GateView | null): string {
  const s = i.status;
  const n = i.plan.steps.length;
  switch (phase) {
    case 'Held':
      return `paused by ${i.plan.pausedBy}: advance proposes nothing until it is false`;
    case 'NotDeployed':
      return 'no state in the output yet: the first advance adopts the Deployment';
    case 'Draining':
      return `${s!.phase === 'Aborted' ? 'aborted: ' : ''}routes left the canary of step ${s!.draining}; its workloads are removed by the next advance (two-commit removal)`;
    case 'Adopting':
      return 'track label on the pods; the next advance switches the Service selectors';
    case 'Healthy':
      return sourceChanged(i)
        ? `the source has a new pod template (revision ${i.sourceRevision}); a rollout starts at step 1`
        : 'the output runs the source';
    case 'Promoting':
      if (pingPongPromotion(i))
        return `all traffic to the canary's Service, the canary at full size; clean-up moves the stable pods onto the new version${sourceChanged(i) ? `, then the source's new revision ${i.sourceRevision} starts at step 1` : ''}`;
      return sourceChanged(i)
        ? `the stable Deployment runs the new version, traffic as in the last step; clean-up follows, then the source's new revision ${i.sourceRevision} starts at step 1`
        : 'the stable Deployment runs the new version, traffic as in the last step; clean-up follows';
    case 'Aborted':
      return sourceChanged(i)
        ? `aborted revision ${s!.canaryRevision ?? '?'}; the source has a new one, which starts at step 1`
        : `aborted${s!.abortedStep ? ` at step ${s!.abortedStep}` : ''}: revision ${s!.canaryRevision ?? '?'} is held back, all traffic on stable`;
    case 'Paused':
    case 'Progressing':
      if (promotesFirst(i))
        return `the active Service serves revision ${s!.canaryRevision ?? '?'}: it is promoted first (its gate below), then the source's revision ${i.sourceRevision} starts against it`;
      if (sourceChanged(i)) return `the source has a new revision; the next advance restarts at step 1 with it`;
      return `step ${s!.step} of ${n}; ${gate ? `the gate before ${gate.before}: ${gate.kind}, ${gate.detail}` : ''}`;
  }
}
