import { Origin } from '../diagnostics';
import type { AnalysisRequest } from './analysis-request';
import type { Gate } from './plan';
import { KubeObject } from './kube';

/** Normalized rollout: the Kruise and Argo formats both end up here, as plain readonly data. */
export interface RolloutSpec {
  readonly format: RolloutFormat;
  readonly name: string;
  readonly namespace?: string;
  readonly origin: Origin;
  /** The Deployment this rollout renders; for an Argo inline template, a Deployment synthesized from the Rollout. */
  readonly workload: WorkloadRef;
  /** canary: extra canary pods, stable keeps all; partition: canary pods replace stable ones. */
  readonly style: 'canary' | 'partition';
  readonly steps: readonly StepSpec[];
  readonly traffic: TrafficSpec;
  /** Labels/annotations merged into the canary pod template (Kruise patchPodTemplateMetadata, Argo canaryMetadata). */
  readonly canaryPodMetadata: PodMetadataPatch;
  readonly stablePodMetadata: PodMetadataPatch;
  /** Name of a shared Kruise TrafficRouting, if any. */
  readonly trafficRoutingRef?: string;
  /** Where the rollout names its TrafficRouting (the annotation or strategy.canary.trafficRoutingRef). */
  readonly trafficRoutingRefOrigin?: Origin;
  /** Argo: stable pods shrink as canary traffic grows (trafficRouting only). */
  readonly dynamicStableScale?: boolean;
  /** Argo: a non-empty stable or canary side runs at least this many pods (trafficRouting only). */
  readonly minPodsPerReplicaSet?: number;
  /** Argo canary antiAffinity: canary pods avoid nodes running stable pods. */
  readonly antiAffinity?: AntiAffinitySpec;
  /**
   * Argo canary.pingPong: two Services that swap the stable and canary roles at the end of each
   * rollout. `traffic.stableService`/`canaryService` name them as ping stable; the rollout's status
   * says which one is stable now (see pingPongSides).
   */
  readonly pingPong?: PingPongSpec;
  /**
   * Argo scaleDownDelaySeconds / abortScaleDownDelaySeconds, Kruise gracePeriodSeconds: canary
   * workloads stay one more commit after routes leave them (two-commit removal), and that commit
   * waits for this gate (ping-pong: the clean-up that replaces the old stable pods waits too).
   */
  readonly removalGates?: { readonly promotion: Gate; readonly abort: Gate };
  /** The field that pauses the rollout (Argo spec.paused, Kruise strategy.paused): advance proposes nothing while set. */
  readonly pausedBy?: { readonly field: string; readonly origin: Origin };
  /** Argo `canary.analysis`: checked at every gate from `startingStep` (a rollgen step, 1-based) on. */
  readonly backgroundAnalysis?: { readonly request: AnalysisRequest; readonly startingStep: number };
  /** Argo: a pause, experiment or plugin before any step holds the start of the rollout (the gate before step 1). */
  readonly startHold?: PauseSpec;
  /** The rollout object as written (args' fieldRef reads it). */
  readonly source?: unknown;
  /**
   * `strategy.blueGreen`. Argo: the stable Service is the active Service, the canary Service the
   * preview Service, the steps are preview and switch (src/spec/argo-bluegreen.ts). Kruise v1beta1:
   * canary style with its steps as written, where traffic 0% is allowed.
   */
  readonly blueGreen?: boolean;
  /** Argo blue-green abortScaleDownDelaySeconds: after an abort the preview pods stay this long, then a later commit removes them. */
  readonly abortDelaySeconds?: number;
}

export type RolloutFormat = 'kruise-v1alpha1' | 'kruise-v1beta1' | 'argo';

export interface WorkloadRef {
  readonly kind: 'Deployment';
  readonly name: string;
  /** Where the rollout names the workload (workloadRef.name), for messages about it. */
  readonly origin?: Origin;
  /** Argo: the Rollout's replicas govern; otherwise the Deployment's. */
  readonly replicasOverride?: number;
  /** Argo workloadRef: where the Rollout has no spec.replicas, its default of 1 governs (the Deployment's is not read). */
  readonly replicasDefaulted?: boolean;
  /** Argo inline template: the Deployment rollgen renders in place of a referenced one. */
  readonly synthesized?: KubeObject;
  /** Argo Rollout fields that are Deployment fields (minReadySeconds, ...), set on the rendered Deployments. */
  readonly deploymentSpec?: Readonly<Record<string, unknown>>;
}

export type PingPongSide = 'ping' | 'pong';

export interface PingPongSpec {
  readonly ping: string;
  readonly pong: string;
  readonly origin: Origin;
  /**
   * stableService/canaryService are written too (Argo's ALB + mesh form): aws-alb routes to ping
   * and pong, the other providers to that pair, as Argo's controller prefers them.
   */
  readonly alongside: boolean;
  /** The side that is stable in one rendering (from the status); ping when unset. */
  readonly stable?: PingPongSide;
}

/** The rollout as rendered while `stable` is the stable side: without a pair of its own its traffic Services are the sides. */
export function pingPongSides(rollout: RolloutSpec, stable: PingPongSide | undefined): RolloutSpec {
  const pp = rollout.pingPong;
  if (!pp) return rollout;
  const pingPong = { ...pp, ...(stable ? { stable } : {}) };
  if (pp.alongside) return { ...rollout, pingPong };
  const [stableService, canaryService] = sideServices(pingPong);
  return { ...rollout, pingPong, traffic: { ...rollout.traffic, stableService, canaryService } };
}

/** [stable, canary] Service names of the ping-pong pair now. */
export function sideServices(pp: PingPongSpec): [string, string] {
  return pp.stable === 'pong' ? [pp.pong, pp.ping] : [pp.ping, pp.pong];
}

export const otherSide = (side: PingPongSide): PingPongSide => (side === 'ping' ? 'pong' : 'ping');

/** Preferred with a weight, or (no weight) required. */
export interface AntiAffinitySpec {
  readonly preferredWeight?: number;
}

export interface PodMetadataPatch {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/** An amount of pods: an absolute count or a percentage of the workload's replicas. */
export type ReplicaAmount = { readonly count: number } | { readonly percent: number };

export interface StepSpec {
  readonly origin: Origin;
  /** Canary pods for this step; undefined = derive from the traffic share (Argo setWeight). */
  readonly replicas?: ReplicaAmount;
  /** Share of traffic in units of `TrafficSpec.weightTotal`; undefined = no weighted route in this step. */
  readonly weight?: number;
  /** Kruise matches: ORed list of ANDed conditions. */
  readonly matches: readonly RouteMatch[];
  /** Argo named header routes active in this step, in managedRoutes order. */
  readonly headerRoutes: readonly NamedRoute[];
  readonly mirrorRoutes: readonly MirrorRoute[];
  readonly requestHeaderModifier?: HeaderModifier;
  readonly pause: PauseSpec;
  /** Argo step `analysis` entries after this step: they gate it and run until complete. */
  readonly analyses?: readonly AnalysisRequest[];
  /** Argo `experiment` after this step: its workloads are committed with it and gone from the next commit. */
  readonly experiment?: ExperimentSpec;
  /** Blue-green: what this step is called (preview, switch) in plans, PR titles and messages. */
  readonly name?: string;
  /** Blue-green: the active (stable) Service selects the new version's pods in this step. */
  readonly switched?: boolean;
}

/**
 * An Argo experiment step: temporary workloads of the stable or canary pod template (and their
 * Services), run beside the rollout while the experiment's analyses decide (src/render/experiment.ts).
 */
export interface ExperimentSpec {
  readonly origin: Origin;
  /** How long it runs once committed; undefined = until its required analyses complete (or a person). */
  readonly durationSeconds?: number;
  readonly templates: readonly ExperimentTemplate[];
  readonly analyses: readonly ExperimentAnalysis[];
}

export interface ExperimentTemplate {
  readonly name: string;
  readonly specRef: 'stable' | 'canary';
  /** Argo's default 1. */
  readonly replicas: number;
  /** Argo `weight`: this share of the traffic (units of weightTotal) goes to its Service, from the stable share. */
  readonly weight?: number;
  /** A Service of its own, as Argo makes one for `service` (or `weight`); its name defaults to the workload's. */
  readonly service?: { readonly name?: string };
  /** Pod labels and annotations added (labels also select), as Argo's template `metadata`. */
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** Argo's template `selector.matchLabels`, in place of the Deployment's. */
  readonly selector?: Readonly<Record<string, string>>;
  readonly origin: Origin;
}

export interface ExperimentAnalysis {
  readonly name: string;
  readonly request: AnalysisRequest;
  /** Argo `requiredForCompletion`: the experiment (and the step) waits for it to complete. */
  readonly required: boolean;
}

/** none: the next entry follows without a pause (Argo automatic); manual: wait for a person; timed: wait `seconds`. */
export type PauseSpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'manual' }
  | { readonly kind: 'timed'; readonly seconds: number };

export type StringMatchType = 'Exact' | 'RegularExpression' | 'Prefix';

export interface ValueMatch {
  readonly name: string;
  readonly type: StringMatchType;
  readonly value: string;
}

export interface RouteMatch {
  readonly headers: readonly ValueMatch[];
  readonly queryParams: readonly ValueMatch[];
  readonly cookies: readonly ValueMatch[];
  readonly path?: { readonly type: 'Exact' | 'PathPrefix' | 'RegularExpression'; readonly value: string };
  /** Argo setMirrorRoute `method`: a StringMatch (exact, regex or prefix), as upstream. */
  readonly method?: MethodMatch;
}

export interface MethodMatch {
  readonly type: StringMatchType;
  readonly value: string;
}

/** A method condition as messages say it: `GET`, `regex GET|HEAD` or `prefix P`. */
export function methodText(m: MethodMatch): string {
  return m.type === 'Exact' ? m.value : `${m.type === 'Prefix' ? 'prefix' : 'regex'} ${m.value}`;
}

export interface NamedRoute {
  readonly name: string;
  readonly matches: readonly RouteMatch[];
}

export interface MirrorRoute extends NamedRoute {
  readonly percentage: number;
}

export interface HeaderModifier {
  readonly set: readonly { readonly name: string; readonly value: string }[];
  readonly add: readonly { readonly name: string; readonly value: string }[];
  readonly remove: readonly string[];
}

export interface TrafficSpec {
  readonly stableService?: string;
  readonly canaryService?: string;
  /**
   * Where the user wrote each Service's name, so a missing Service is reported at that field, and
   * where the strategy is written, so a Service name left out is reported there.
   */
  readonly serviceOrigins?: { readonly stable?: Origin; readonly canary?: Origin; readonly strategy?: Origin };
  /** false when the user supplies the canary Service (Argo canaryService) or Kruise disables it. */
  readonly generateCanaryService: boolean;
  /** Denominator of step weights (Argo maxTrafficWeight, default 100). */
  readonly weightTotal: number;
  readonly providers: readonly ProviderRef[];
  readonly managedRoutes: readonly string[];
}

/** One traffic provider of a rollout, with the provider's own options as written. */
export interface ProviderRef {
  readonly provider: string;
  readonly origin: Origin;
  readonly options: Readonly<Record<string, unknown>>;
  /** Where an option field is written (Argo: the field of the block as written); absent: `origin`. */
  readonly locate?: (field: readonly (string | number)[]) => Origin;
}
