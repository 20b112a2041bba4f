import { Gate, Plan, PlannedStep, TrafficState } from '../model/plan';
import { matches as describeMatches } from '../plan/format';
import { RolloutStatus } from './status';

/**
 * `rollgen status` as plain data: where one rollout stands, what runs, what gate holds the next
 * move and the command that makes it. Built from what the edges read (the status file, the
 * rendered Deployments, git dates, GitHub); every function here is pure, `now` is given.
 */

/** Named as `kubectl argo rollouts` names them, plus the states only a git-driven rollout has. */
export type ViewPhase =
  'NotDeployed' | 'Adopting' | 'Healthy' | 'Progressing' | 'Paused' | 'Promoting' | 'Draining' | 'Aborted' | 'Held';

export interface ContainerImage {
  readonly container: string;
  readonly image: string;
}

/** What the GitOps engine reported for the live step, and the step's analysis, as src/flow records them. */
export interface GateSignalsView {
  readonly health: { readonly state: 'healthy' | 'waiting' | 'failed'; readonly detail: string } | null;
  readonly analysis: { readonly verdict: string; readonly detail: string } | null;
}

/** The open PR of an app, as the PR flow named it. */
export interface PendingPull {
  readonly number: number;
  readonly url: string;
  readonly title: string;
  /** What it does: "step 2", "promote", "abort", ... */
  readonly does: string;
}

export type GitHubView =
  { readonly looked: false; readonly why: string } | { readonly looked: true; readonly pulls: readonly PendingPull[] };

export interface StatusInput {
  readonly app: string;
  readonly namespace?: string;
  /** How the user names the app on the command line ("web", or "apps/web deploy/web"). */
  readonly target: string;
  readonly plan: Plan;
  readonly status: RolloutStatus | undefined;
  readonly sourceRevision: string;
  readonly images: {
    readonly stable: readonly ContainerImage[] | null;
    readonly canary: readonly ContainerImage[] | null;
    readonly source: readonly ContainerImage[];
  };
  /** When the current state landed (the commit that last changed the status file); undefined when not committed. */
  readonly landedAt: Date | undefined;
  readonly now: Date;
  readonly signals: GateSignalsView | null;
  readonly github: GitHubView;
  readonly drift: readonly string[];
}

export interface GateView {
  /** What the gate stands before: "step 3", "promote", "clean-up", ... */
  readonly before: string;
  readonly kind: Gate['kind'];
  readonly seconds: number | null;
  /** Timed gates: when the count started (the landing) and the seconds left; null when not counting. */
  readonly since: string | null;
  readonly remaining: number | null;
  readonly passed: boolean;
  /** Analyses that must pass at this gate too (their templates), besides its own kind. */
  readonly analysis: readonly string[];
  readonly detail: string;
}

/** The live canary routing: its weight, the requests its matches send (null: none), and a shared TrafficRouting's. */
export interface TrafficView {
  readonly weight: number;
  readonly weightTotal: number;
  readonly byPods: boolean;
  readonly matches: string | null;
  readonly mirror: string | null;
  readonly sharedRouting: { readonly name: string; readonly weight: number; readonly matches: string | null } | null;
}

export interface NextCommand {
  readonly command: string;
  readonly does: string;
}

export interface RolloutView {
  readonly app: string;
  readonly rollout: string;
  readonly namespace: string | null;
  readonly phase: ViewPhase;
  readonly message: string;
  readonly strategy: { readonly format: string; readonly style: string; readonly providers: readonly string[] };
  readonly step: number | null;
  readonly steps: number;
  readonly traffic: TrafficView | null;
  readonly replicas: { readonly desired: number; readonly stable: number; readonly canary: number };
  readonly revisions: { readonly stable: string | null; readonly canary: string | null; readonly source: string };
  readonly images: {
    readonly stable: readonly ContainerImage[] | null;
    readonly canary: readonly ContainerImage[] | null;
    readonly source: readonly ContainerImage[];
  };
  readonly sourceChanged: boolean;
  readonly gate: GateView | null;
  readonly signals: GateSignalsView | null;
  readonly github: GitHubView;
  readonly next: NextCommand | null;
  readonly otherCommands: readonly NextCommand[];
  readonly drift: readonly string[];
}

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
    strategy: { format: i.plan.format, style: i.plan.style, providers: i.plan.providers },
    step: live ?? null,
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
    matches: matchesOf(t),
    mirror: mirror || null,
    ...base,
  };
}

function matchesOf(t: TrafficState): string | null {
  const text = describeMatches(t);
  return text === '-' ? null : text;
}

function replicasOf(plan: Plan, step: PlannedStep | undefined): RolloutView['replicas'] {
  if (!step) return { desired: plan.replicas, stable: plan.replicas, canary: 0 };
  return { desired: plan.replicas, stable: step.stableReplicas, canary: step.canaryReplicas };
}

function sourceChanged(i: StatusInput): boolean {
  const s = i.status;
  if (!s) return false;
  return i.sourceRevision !== (s.canaryRevision ?? s.stableRevision);
}

/** The gate before the next move, per phase; null when nothing moves next (healthy and up to date). */
function gateView(i: StatusInput): GateView | null {
  const s = i.status;
  const plan = i.plan;
  if (!s) return fixedGate('first deploy', { kind: 'manual' }, 'running advance (or merging its PR) adopts the app');
  if (s.draining !== undefined)
    return fixedGate('removing the canary workloads', { kind: 'automatic' }, 'the next advance removes them');
  switch (s.phase) {
    case 'Adopting':
      return fixedGate('selecting pods by track label', { kind: 'automatic' }, 'the next advance does it');
    case 'Promoting':
      return fixedGate('clean-up', { kind: 'automatic' }, 'the next advance removes the canary');
    case 'Aborted':
      return sourceChanged(i)
        ? startGate(i)
        : fixedGate('retry', { kind: 'manual' }, 'a person retries it, or changes the source');
    case 'Healthy':
      return sourceChanged(i) ? startGate(i) : null;
    case 'Progressing': {
      if (sourceChanged(i))
        return fixedGate('restart at step 1', { kind: 'automatic' }, 'the source has a new revision');
      const before = s.step >= plan.steps.length ? 'promote' : `step ${s.step + 1}`;
      const step = plan.steps[s.step - 1];
      return withAnalysis(i, stepGate(i, before, step?.gate ?? { kind: 'manual' }), step);
    }
  }
}

function startGate(i: StatusInput): GateView {
  const g = i.plan.startGate;
  return fixedGate('step 1', g, g.kind === 'manual' ? 'a person starts the rollout' : 'starts at the next advance');
}

function fixedGate(before: string, g: Gate, detail: string): GateView {
  return {
    before,
    kind: g.kind,
    seconds: g.kind === 'timed' ? g.seconds : null,
    since: null,
    remaining: null,
    passed: g.kind === 'automatic',
    analysis: [],
    detail,
  };
}

/** A step's own gate: a timed one counts from the landing the git history records. */
function stepGate(i: StatusInput, before: string, g: Gate): GateView {
  const held = signalHold(i.signals);
  if (g.kind !== 'timed') {
    const detail = g.kind === 'manual' ? 'waits for a person (a pause without duration)' : 'passes at once';
    return { ...fixedGate(before, g, held ?? detail), passed: g.kind === 'automatic' && !held };
  }
  if (!i.landedAt)
    return {
      ...fixedGate(before, g, `${g.seconds}s from the commit that lands this step; it is not committed yet`),
      passed: false,
    };
  const remaining = Math.max(0, Math.ceil((i.landedAt.getTime() + g.seconds * 1000 - i.now.getTime()) / 1000));
  const detail = remaining > 0 ? `${remaining}s left of ${g.seconds}s` : `${g.seconds}s passed`;
  return {
    ...fixedGate(before, g, held ? `${detail}; ${held}` : detail),
    since: i.landedAt.toISOString(),
    remaining,
    passed: remaining === 0 && !held,
  };
}

/** A gate with analysis: offline its verdict is unknown, so the gate is not known to have passed. */
function withAnalysis(i: StatusInput, g: GateView, step: PlannedStep | undefined): GateView {
  const analysis = (step?.analysis ?? []).map((a) => `${a.templates.join('+')} (${a.kind})`);
  if (analysis.length === 0) return g;
  if (i.signals?.analysis) return { ...g, analysis };
  const unread = `analysis ${analysis.join(', ')} must pass too (\`rollgen status --pr\` reads its verdict, \`rollgen analyze ${i.target}\` runs it now)`;
  return { ...g, analysis, passed: false, detail: `${g.detail}; ${unread}` };
}

/** Health and analysis that hold a gate although its own time or approval passed. */
function signalHold(s: GateSignalsView | null): string | undefined {
  if (s?.health?.state === 'waiting') return `waiting for health: ${s.health.detail}`;
  if (s?.health?.state === 'failed') return `health failed: ${s.health.detail}`;
  if (s?.analysis && s.analysis.verdict !== 'successful') return `analysis ${s.analysis.verdict}: ${s.analysis.detail}`;
  return undefined;
}

function phaseOf(i: StatusInput, gate: GateView | null): ViewPhase {
  const s = i.status;
  if (i.plan.pausedBy) return 'Held';
  if (!s) return 'NotDeployed';
  if (s.draining !== undefined) return 'Draining';
  if (s.phase !== 'Progressing') return s.phase;
  if (sourceChanged(i)) return 'Progressing';
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
      return 'the stable Deployment runs the new version, traffic as in the last step; clean-up follows';
    case 'Aborted':
      return sourceChanged(i)
        ? `aborted revision ${s!.canaryRevision ?? '?'}; the source has a new one, which starts at step 1`
        : `aborted: revision ${s!.canaryRevision ?? '?'} is held back, all traffic on stable`;
    case 'Paused':
    case 'Progressing':
      if (sourceChanged(i)) return `the source has a new revision; the next advance restarts at step 1 with it`;
      return `step ${s!.step} of ${n}; ${gate ? `the gate before ${gate.before}: ${gate.kind}, ${gate.detail}` : ''}`;
  }
}

function commandsFor(
  phase: ViewPhase,
  i: StatusInput,
  gate: GateView | null,
): { next: NextCommand | null; others: NextCommand[] } {
  const run = (cmd: string, does: string): NextCommand => ({ command: `rollgen ${cmd} ${i.target}`, does });
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
      return { next: run('advance', 'cleans up: routes to stable only, canary removed'), others: [] };
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
