import { HeaderModifier, MirrorRoute, NamedRoute, RouteMatch } from './rollout';

/** Every step of one rollout, normalized. Plain JSON data: `plan --json` prints it as is. */
export interface Plan {
  readonly rollout: string;
  readonly format: string;
  readonly workload: string;
  readonly style: 'canary' | 'partition';
  /**
   * The strategy as users name it: canary (new pods beside the stable ones), partition (Kruise's
   * in-place canary: the new version replaces stable pods) or blue-green. `style` is only the workload arrangement.
   */
  readonly strategy: StrategyName;
  readonly replicas: number;
  readonly providers: readonly string[];
  /** What must happen before the PR that starts a rollout (step 1) may land. */
  readonly startGate: Gate;
  readonly steps: readonly PlannedStep[];
  /** The field that pauses the rollout (spec.paused, spec.strategy.paused): advance proposes nothing. */
  readonly pausedBy?: string;
  /** Removal delays: the gate of the commit that removes drained canary workloads, after promotion and after an abort. */
  readonly removalGates?: { readonly promotion: Gate; readonly abort: Gate };
  /** Argo pingPong: the two Services that swap the stable and canary roles at each clean-up. */
  readonly pingPong?: { readonly ping: string; readonly pong: string };
  /** A shared Kruise TrafficRouting this rollout is a member of: its routes are live at every step. */
  readonly trafficRouting?: SharedRoutingPlan;
  /** Argo blue-green: promote scales down the old version, and the PRs say preview, switch, scale down old. */
  readonly blueGreen?: boolean;
  /** After an abort the canary workloads are removed by a later commit behind this gate (Argo abortScaleDownDelaySeconds). */
  readonly abortGate?: Gate;
}

export type StrategyName = 'canary' | 'partition' | 'blue-green';

/** How a rollout is named in plan, status and PR bodies: `style` alone reads as the strategy and says "canary" for blue-green. */
export function strategyName(r: {
  readonly format: string;
  readonly style: 'canary' | 'partition';
  readonly blueGreen?: boolean;
}): StrategyName {
  if (r.blueGreen) return 'blue-green';
  // An Argo canary without traffic routing shares by pod count (partition style here), but Argo and its users call it a canary.
  return r.format !== 'argo' && r.style === 'partition' ? 'partition' : 'canary';
}

/** The strategy as plan's header, status and PR bodies print it: `blue-green`, `canary (ping-pong)`. */
export function strategyLabel(plan: Pick<Plan, 'strategy' | 'pingPong'>): string {
  return `${plan.strategy}${plan.pingPong ? ' (ping-pong)' : ''}`;
}

export interface SharedRoutingPlan {
  readonly name: string;
  readonly providers: readonly string[];
  readonly traffic: TrafficState;
}

export interface PlannedStep {
  /** 1-based, as Kruise numbers steps. */
  readonly index: number;
  readonly canaryReplicas: number;
  readonly stableReplicas: number;
  readonly traffic: TrafficState;
  /**
   * split: the stable Service selects stable pods only and routes decide the canary share;
   * shared: it selects both tracks, so pods share traffic by count (Kruise steps without traffic, Argo basic canary).
   */
  readonly serviceSelection: 'split' | 'shared';
  /** Requests the providers' own options send to the canary in this step beyond `traffic.matches` (TrafficGenerator.providerMatches). */
  readonly providerMatches?: readonly RouteMatch[];
  /** What must happen after this step lands before the next step may. */
  readonly gate: Gate;
  /** Analyses that must pass at this gate too (Argo step/background analysis, rollgen.yaml `analysis:`). */
  readonly analysis?: readonly GateSummary[];
  /** Blue-green: the step's name (preview, switch). */
  readonly name?: string;
  /** Blue-green: the active Service selects the new version's pods. */
  readonly switched?: boolean;
}

/** The routing a provider must express for one state. Stable-only state: weight 0 and no routes. */
export interface TrafficState {
  readonly weight: number;
  readonly weightTotal: number;
  readonly matches: readonly RouteMatch[];
  readonly headerRoutes: readonly NamedRoute[];
  readonly mirrorRoutes: readonly MirrorRoute[];
  readonly requestHeaderModifier?: HeaderModifier;
  /** Argo experiment templates with a weight: that share (units of weightTotal) goes to their Service, taken from stable. */
  readonly experiments?: readonly ExperimentRoute[];
}

export interface ExperimentRoute {
  readonly service: string;
  readonly weight: number;
}

export type Gate =
  | { readonly kind: 'manual' }
  | { readonly kind: 'timed'; readonly seconds: number }
  | { readonly kind: 'automatic' };

/** The traffic of a step once its experiment is over (promotion, draining): its workloads are gone, so are their routes. */
export function withoutExperiments<T extends { readonly experiments?: unknown }>(t: T): T {
  if (t.experiments === undefined) return t;
  const { experiments: _gone, ...rest } = t;
  return rest as T;
}

export const stableTraffic = (weightTotal: number): TrafficState => ({
  weight: 0,
  weightTotal,
  matches: [],
  headerRoutes: [],
  mirrorRoutes: [],
});

export function hasCanaryRoutes(t: TrafficState): boolean {
  return t.weight > 0 || t.matches.length > 0 || t.headerRoutes.length > 0 || t.mirrorRoutes.length > 0;
}

/** The plain-JSON view of one gate analysis in a plan. */
export interface GateSummary {
  readonly kind: 'step' | 'background';
  readonly id: string;
  readonly templates: readonly string[];
  readonly metrics: readonly MetricSummary[];
}

export interface MetricSummary {
  readonly name: string;
  readonly provider: string;
  readonly successCondition?: string;
  readonly failureCondition?: string;
  readonly count?: number;
  readonly interval?: number;
  readonly failureLimit: number;
  readonly dryRun: boolean;
}
