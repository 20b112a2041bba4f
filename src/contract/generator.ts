import type { Diagnostic, Origin } from '../diagnostics';
import type { KubeObject } from '../model/kube';
import type { ResourceSet } from '../model/resource-set';
import type { PlannedStep, TrafficState } from '../model/plan';
import type { TrackLabel } from '../model/track';
import type { InputAdapters } from './inputs';
import type { RolloutSpec, RouteMatch, StringMatchType } from '../model/rollout';

/**
 * What a provider can express. The planner checks every step against this before rendering,
 * so a generator never silently drops a condition it cannot write.
 */
export interface Capabilities {
  readonly weight: boolean;
  /** A weight denominator other than 100 (ingress-nginx canary-weight-total). */
  readonly customWeightTotal: boolean;
  readonly headerMatchTypes: readonly StringMatchType[];
  readonly cookieMatch: boolean;
  readonly queryMatch: boolean;
  readonly pathMatch: boolean;
  readonly methodMatch: boolean;
  /** How many conditions one match may AND together. */
  readonly conditionsPerMatch: number;
  /** How many matches one step may OR together. */
  readonly matchesPerStep: number;
  /** Header routes and weight in the same step. */
  readonly matchWithWeight: boolean;
  /** Argo setHeaderRoute. */
  readonly namedHeaderRoutes: boolean;
  readonly mirror: boolean;
  readonly requestHeaderModifier: boolean;
  /**
   * Argo canary.pingPong: the ping and pong Services swap the stable and canary roles. `preferred`:
   * it routes to them even when stableService/canaryService are written too (Argo's ALB).
   */
  readonly pingPong?: boolean | 'preferred';
}

/** One rollout bound to a provider: what a generator may read about it. Pure data: no fs, no network, no clock, no env. */
export interface PeerRollout<O> {
  readonly app: string;
  readonly rollout: RolloutSpec;
  readonly options: O;
  readonly optionsOrigin: Origin;
  /** Where an option field is written, e.g. `['rootService']`, when the format says (generators/_kit/option-origin.ts falls back to `optionsOrigin`). */
  readonly locateOption?: (field: readonly (string | number)[]) => Origin;
  /** The app's source objects (rollout documents excluded). */
  readonly resources: ResourceSet;
  /**
   * The app's output as committed (what the cluster runs), when rollgen.yaml locates it. Repo-wide
   * allocations keep what it holds: an ALB order a committed canary has stays with it.
   */
  readonly committed?: ResourceSet;
  /** A fleet target's cluster: peers in other clusters share no route, listener or order with it. */
  readonly cluster?: string;
  readonly stableService: string;
  readonly canaryService: string;
}

/** Everything a generator sees when it checks, claims or renders one rollout. */
export interface GeneratorContext<O> extends PeerRollout<O> {
  /**
   * Every rollout bound to this provider across the repo (all apps of rollgen.yaml, whatever step
   * each is in), this one included, sorted by app then rollout. Repo-wide allocations (e.g. ALB
   * rule orders on a shared listener) are computed from it, so they are the same for every app
   * and do not change from step to step. Rendering a lone directory sees only itself.
   */
  readonly peers: readonly PeerRollout<O>[];
  /** The pod label that tells stable from canary pods; set when rendering (e.g. Istio DestinationRule subsets select by it). */
  readonly track?: TrackLabel;
}

/** What `check` sees: the context plus every planned step, so a generator can try each step's traffic. */
export interface CheckContext<O> extends GeneratorContext<O> {
  readonly steps: readonly PlannedStep[];
}

/** One slice of the routing table a provider owns; two rollouts claiming the same key conflict. */
export interface RouteClaim {
  readonly key: string;
  readonly description: string;
  readonly origin: Origin;
}

export interface SimRequest {
  readonly host?: string;
  readonly path: string;
  readonly method?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly cookies: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
}

/** A Service and, for a mesh subset, the pod labels it adds to the Service's selector. */
export interface SimBackend {
  readonly service: string;
  readonly share: number;
  readonly labels?: Readonly<Record<string, string>>;
}

/** Share of requests per backend Service, shares summing to 1; `rule` says what decided it; `mirror` gets copies of that share of requests. */
export interface SimResult {
  readonly backends: readonly SimBackend[];
  readonly rule: string;
  readonly mirror?: SimBackend;
}

export interface TrafficGenerator<O = unknown> {
  /** Equals the folder name and the registry key (meta-tested). */
  readonly id: string;
  readonly summary: string;
  readonly capabilities: Capabilities;
  /** JSON Schema of the provider options as the normalizer hands them over. */
  readonly optionsSchema: object;
  /** Which entries of the rollout formats name this provider, and how they become its options. */
  readonly inputs?: InputAdapters;
  /** Checks the referenced objects exist and fit; runs once per rollout. */
  check(ctx: CheckContext<O>): readonly Diagnostic[];
  /** Features of one traffic state beyond what `capabilities` can say (e.g. one header slot); empty when expressible. */
  unsupported?(traffic: TrafficState): readonly string[];
  /** Claims used for repo-wide conflict checks. */
  claims(ctx: GeneratorContext<O>): readonly RouteClaim[];
  /** Repo-wide problems among every rollout bound to this provider (e.g. no free ALB order); run by plan, validate, render and advance. */
  checkRepo?(peers: readonly PeerRollout<O>[]): readonly Diagnostic[];
  /** `validate`: problems in what every app's committed output holds (e.g. two ALB rules at one order), not in fresh renders. */
  checkCommitted?(peers: readonly PeerRollout<O>[]): readonly Diagnostic[];
  /** `plan`/`validate`: lines showing a repo-wide allocation (e.g. the ALB order map per listener). */
  describeRepo?(peers: readonly PeerRollout<O>[]): readonly string[];
  /**
   * Objects for one traffic state. Returned objects replace source objects with the same
   * kind/namespace/name or are added. With no canary routes the result restores the stable routing.
   */
  render(ctx: GeneratorContext<O>, traffic: TrafficState): readonly KubeObject[];
  /**
   * The ways a request reaches the canary in one traffic state beyond `traffic.matches`, from what
   * the provider's own options make render write (ingress-nginx: a `canary-by-header` among Argo's
   * additionalIngressAnnotations). Plan and status show them beside the step's matches.
   */
  providerMatches?(options: O, traffic: TrafficState): readonly RouteMatch[];
  /** Evaluates a request against rendered objects as the data plane would. Returns undefined when no route matches. */
  simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined;
  /**
   * Mesh providers only: how the mesh routes a request that an earlier hop (an ingress, another
   * mesh) sent to Service `service`, as the sidecar does for that destination. Undefined when this
   * provider does not route that Service. The simulator follows these hops along the whole chain.
   */
  simulateHop?(objects: readonly KubeObject[], service: string, request: SimRequest): SimResult | undefined;
}

/** A generator with the options a rollout gave it, validated against its schema. */
export interface BoundProvider {
  readonly generator: TrafficGenerator;
  readonly options: unknown;
  readonly origin: Origin;
  /** Where an option field is written (ProviderRef.locate). */
  readonly locate?: (field: readonly (string | number)[]) => Origin;
}

/** Erases the options type for the heterogeneous registry while keeping the definition checked. */
export function defineGenerator<O>(generator: TrafficGenerator<O>): TrafficGenerator<unknown> {
  return generator as TrafficGenerator<unknown>;
}
