import { Plan, PlannedStep, TrafficState } from '../model/plan';
import { matches as describeMatches } from '../plan/format';
import { RolloutStatus } from './status';
import { gateView, promotesFirst, signalHold, sourceChanged } from './status-gate';
import { GateView, NextCommand, RolloutView, StatusInput, TrafficView, ViewPhase } from './status-types';

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
  return {
    app: i.app,
    rollout: i.plan.rollout,
    namespace: i.namespace ?? null,
    phase,
    message: messageFor(phase, i, gate),
    strategy: {
      format: i.plan.format,
      style: i.plan.style,
      blueGreen: i.plan.blueGreen === true,
      providers: i.plan.providers,
    },
    step: live ?? null,
    stepName: step?.name ?? null,
    steps: i.plan.steps.length,
    traffic: s ? trafficOf(i.plan, s.draining === undefined ? step : undefined) : null,
    replicas: replicasOf(i.plan, s?.draining === undefined ? step : undefined),
    revisions: {
      stable: s?.stableRevision ?? null,
      canary: s?.canaryRevision ?? null,
      source: i.sourceRevision,
    },
    images: i.images,
    sourceChanged: sourceChanged(i),
    gate,
    signals: i.signals,
    github: i.github,
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

function trafficOf(plan: Plan, step: PlannedStep | undefined): TrafficView {
  const shared = plan.trafficRouting;
  const base = {
    sharedRouting: shared
      ? { name: shared.name, weight: shared.traffic.weight, matches: matchesOf(shared.traffic) }
      : null,
  };
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

function replicasOf(plan: Plan, step: PlannedStep | undefined): RolloutView['replicas'] {
  if (!step) return { desired: plan.replicas, stable: plan.replicas, canary: 0 };
  return { desired: plan.replicas, stable: step.stableReplicas, canary: step.canaryReplicas };
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
      return sourceChanged(i)
        ? `the stable Deployment runs the new version, traffic as in the last step; clean-up follows, then the source's new revision ${i.sourceRevision} starts at step 1`
        : 'the stable Deployment runs the new version, traffic as in the last step; clean-up follows';
    case 'Aborted':
      return sourceChanged(i)
        ? `aborted revision ${s!.canaryRevision ?? '?'}; the source has a new one, which starts at step 1`
        : `aborted: revision ${s!.canaryRevision ?? '?'} is held back, all traffic on stable`;
    case 'Paused':
    case 'Progressing':
      if (promotesFirst(i))
        return `the active Service serves revision ${s!.canaryRevision ?? '?'}: it is promoted first (its gate below), then the source's revision ${i.sourceRevision} starts against it`;
      if (sourceChanged(i)) return `the source has a new revision; the next advance restarts at step 1 with it`;
      return `step ${s!.step} of ${n}; ${gate ? `the gate before ${gate.before}: ${gate.kind}, ${gate.detail}` : ''}`;
  }
}

function commandsFor(
  phase: ViewPhase,
  i: StatusInput,
  gate: GateView | null,
): { next: NextCommand | null; others: NextCommand[] } {
  // Read through GitHub (--pr), the app moves by PRs: the same commands in PR mode, advance as `rollgen pr`.
  const viaPr = i.github.looked;
  const run = (cmd: string, does: string): NextCommand => ({
    command: !viaPr
      ? `rollgen ${cmd} ${i.target}`
      : cmd === 'advance'
        ? `rollgen pr ${i.target}`
        : `rollgen ${cmd} ${i.target} --pr`,
    does,
  });
  const abort = run('abort', 'routes all traffic to stable and removes the canary');
  switch (phase) {
    case 'Held':
      return {
        next: null,
        others: i.status?.phase === 'Progressing' ? [run('promote', 'moves it one step by hand'), abort] : [],
      };
    case 'NotDeployed':
      return { next: run('advance', 'adopts the Deployment (first deploy)'), others: [] };
    case 'Adopting':
      return { next: run('advance', 'switches the Service selectors to the track label'), others: [] };
    case 'Draining':
      return { next: run('advance', 'removes the canary workloads'), others: [] };
    case 'Promoting':
      return {
        next: run(
          'advance',
          `cleans up: routes to stable only, canary removed${sourceChanged(i) ? '; the advance after starts the new revision at step 1' : ''}`,
        ),
        others: [],
      };
    case 'Healthy':
      return i.status && sourceChanged(i)
        ? { next: run('advance', 'starts the rollout at step 1'), others: [] }
        : { next: null, others: [] };
    case 'Aborted':
      return sourceChanged(i)
        ? { next: run('advance', 'starts the new revision at step 1'), others: [] }
        : { next: run('retry', 'restarts it at step 1'), others: [] };
    case 'Paused':
      return {
        next: run('promote', `moves to ${gate?.before ?? 'the next step'} without waiting for the gate`),
        others: [abort, ...(gate?.kind === 'timed' ? [run('advance', `moves on once the time is up`)] : [])],
      };
    case 'Progressing':
      return { next: run('advance', `moves to ${gate?.before ?? 'the next step'}`), others: [abort] };
  }
}
