import { RolloutSpec, StepSpec } from '../model/rollout';
import { GatePolicy, defaultGatePolicy, gateAfter, startGateOf } from './gates';
import { argoBasicCanary, resolveAmount, scaledAmount, splitReplicas } from './replicas';
import { ExperimentRoute, Plan, PlannedStep, TrafficState, hasCanaryRoutes, strategyName } from '../model/plan';
import { experimentWorkloadName } from '../model/experiment';

/** RolloutSpec + the workload's replicas -> every step as plain data. Pure. */
export function buildPlan(rollout: RolloutSpec, totalReplicas: number, policy: GatePolicy = defaultGatePolicy): Plan {
  const steps = rollout.steps.map((step, i) => planStep(rollout, step, i, totalReplicas, policy));
  return {
    rollout: rollout.name,
    format: rollout.format,
    workload: rollout.workload.name,
    style: rollout.style,
    strategy: strategyName(rollout),
    replicas: totalReplicas,
    providers: rollout.traffic.providers.map((p) => p.provider),
    startGate: startGateOf(rollout, policy),
    steps,
    ...(rollout.pausedBy ? { pausedBy: rollout.pausedBy.field } : {}),
    ...(rollout.removalGates ? { removalGates: rollout.removalGates } : {}),
    ...(rollout.pingPong ? { pingPong: { ping: rollout.pingPong.ping, pong: rollout.pingPong.pong } } : {}),
    ...(rollout.blueGreen ? { blueGreen: true } : {}),
    ...(rollout.abortDelaySeconds ? { abortGate: { kind: 'timed', seconds: rollout.abortDelaySeconds } } : {}),
  };
}

function planStep(rollout: RolloutSpec, step: StepSpec, i: number, total: number, policy: GatePolicy): PlannedStep {
  const routed = rollout.traffic.providers.length > 0;
  const traffic = trafficOf(rollout, step, routed, i + 1);
  const carries = hasCanaryRoutes(traffic);
  const basic = !routed && rollout.format === 'argo' && !step.replicas;
  const split = basic
    ? argoBasicCanary(total, step.weight ?? 0, rollout.traffic.weightTotal, argoMaxSurge(rollout, total))
    : splitReplicas(rollout.style, total, canaryWanted(rollout, step, total), carries);
  const { canary, stable } = routed ? argoRoutedScale(rollout, i, total, split, step.replicas !== undefined) : split;
  return {
    index: i + 1,
    canaryReplicas: canary,
    stableReplicas: stable,
    traffic,
    // With no stable pods left the stable Service must not go empty: ingress-nginx ignores a canary whose main backend has no endpoints (kubernetes/ingress-nginx#9635).
    // Argo blue-green Services select one version each; Kruise without trafficRoutings shares pods, as Kruise does.
    serviceSelection:
      (routed && hasTrafficSpec(step) && stable > 0) || (rollout.blueGreen && rollout.format === 'argo')
        ? 'split'
        : 'shared',
    gate: gateAfter(rollout, step, i === rollout.steps.length - 1, policy),
    ...(step.name ? { name: step.name } : {}),
    ...(step.switched ? { switched: true } : {}),
  };
}

function canaryWanted(rollout: RolloutSpec, step: StepSpec, total: number): number {
  if (step.replicas) return resolveAmount(step.replicas, total);
  return Math.ceil((total * (step.weight ?? 0)) / rollout.traffic.weightTotal - 1e-9);
}

/**
 * Argo with trafficRouting: minPodsPerReplicaSet raises a non-empty side to that many pods, and
 * dynamicStableScale shrinks stable to the traffic it keeps. Argo keeps stable sized for the higher
 * of the current and the desired stable weight; a step's commit moves both at once, so stable is
 * sized for the higher of this step's and the previous step's stable share.
 */
function argoRoutedScale(
  rollout: RolloutSpec,
  i: number,
  total: number,
  split: { canary: number; stable: number },
  explicitScale: boolean,
): { canary: number; stable: number } {
  const atLeast = (n: number) => (n === 0 ? 0 : Math.max(n, Math.min(rollout.minPodsPerReplicaSet ?? 0, total)));
  const canary = explicitScale ? split.canary : atLeast(split.canary);
  if (!rollout.dynamicStableScale) return { canary, stable: split.stable };
  const max = rollout.traffic.weightTotal;
  const weight = Math.min(rollout.steps[i].weight ?? 0, i > 0 ? (rollout.steps[i - 1].weight ?? 0) : 0);
  return { canary, stable: atLeast(Math.ceil((total * (max - weight)) / max)) };
}

/** Argo's maxSurge (default 25%, rounded up) decides whether a basic canary may run one pod more than `replicas`. */
function argoMaxSurge(rollout: RolloutSpec, total: number): number {
  const rolling = rollout.workload.deploymentSpec?.strategy as { rollingUpdate?: { maxSurge?: number | string } };
  return scaledAmount(rolling?.rollingUpdate?.maxSurge, total, '25%', true);
}

/** A Kruise step with neither traffic nor matches leaves routing to Service selection, as Kruise does. */
function hasTrafficSpec(step: StepSpec): boolean {
  return (
    step.weight !== undefined || step.matches.length > 0 || step.headerRoutes.length > 0 || step.mirrorRoutes.length > 0
  );
}

/** Blue-green sends everything to the active Service: none of it to the new version until the switch, all of it after. */
function trafficOf(rollout: RolloutSpec, step: StepSpec, routed: boolean, index: number): TrafficState {
  return {
    weight: routed ? (step.weight ?? 0) : step.switched ? rollout.traffic.weightTotal : 0,
    weightTotal: rollout.traffic.weightTotal,
    matches: step.matches,
    headerRoutes: step.headerRoutes,
    mirrorRoutes: step.mirrorRoutes,
    ...(step.requestHeaderModifier ? { requestHeaderModifier: step.requestHeaderModifier } : {}),
    ...experimentRoutes(rollout, step, routed, index),
  };
}

/** The weighted templates of the step's experiment, each to its Service (named as render/experiment.ts names it). */
function experimentRoutes(
  rollout: RolloutSpec,
  step: StepSpec,
  routed: boolean,
  index: number,
): { experiments?: ExperimentRoute[] } {
  const routes = (step.experiment?.templates ?? [])
    .filter((t) => routed && t.weight !== undefined && t.weight > 0)
    .map((t) => ({
      service: t.service?.name ?? experimentWorkloadName(rollout.name, index, t.name),
      weight: t.weight!,
    }));
  return routes.length > 0 ? { experiments: routes } : {};
}
