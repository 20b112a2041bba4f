import type { RolloutAnalysis } from '../analysis/types';
import type { BoundProvider } from '../contract/generator';
import type { Diagnostic } from '../diagnostics';
import type { KubeObject } from '../model/kube';
import type { Plan } from '../model/plan';
import type { ResourceSet } from '../model/resource-set';
import type { RolloutSpec } from '../model/rollout';
import type { SharedRouting } from './traffic-routing';

/** What the application layer loads from one app's source (src/app/load-app.ts): plain data the core plans, renders and transitions. */
export interface LoadedRollout {
  readonly spec: RolloutSpec;
  /** The desired Deployment: as written in the source, or synthesized from an Argo inline template. */
  readonly deployment: KubeObject;
  readonly plan: Plan;
  readonly providers: readonly BoundProvider[];
  /** The analyses that gate its steps (see src/analysis/gates.ts gatesOf); undefined when none. */
  readonly analysis?: RolloutAnalysis;
}

/** A Kruise TrafficRouting and the rollouts that share it (they advance in lock-step). */
export interface LoadedRouting {
  readonly spec: SharedRouting;
  /** One step: the routing's strategy. */
  readonly plan: Plan;
  readonly providers: readonly BoundProvider[];
  readonly members: readonly string[];
}

export interface LoadedApp {
  readonly name: string;
  /** A fleet target's cluster (rollgen.yaml `targets[].labels.cluster`): repo-wide rules hold per cluster. */
  readonly cluster?: string;
  readonly rollouts: readonly LoadedRollout[];
  readonly routings: readonly LoadedRouting[];
  readonly resources: ResourceSet;
  readonly diagnostics: readonly Diagnostic[];
  /** Kruise rollouts with `spec.disabled: true`, by name: their workloads roll out as plain Deployments. */
  readonly disabledRollouts?: readonly string[];
}
