import { RolloutSpec, StepSpec } from '../model/rollout';
import { GatePolicy, defaultGatePolicy, gateAfter } from './gates';
import { basicCanaryReplicas, resolveAmount, splitReplicas } from './replicas';
import { Plan, PlannedStep, TrafficState, hasCanaryRoutes } from '../model/plan';

/** RolloutSpec + the workload's replicas -> every step as plain data. Pure. */
export function buildPlan(rollout: RolloutSpec, totalReplicas: number, policy: GatePolicy = defaultGatePolicy): Plan {
  const steps = rollout.steps.map((step, i) => planStep(rollout, step, i, totalReplicas, policy));
  return {
    rollout: rollout.name,
    format: rollout.format,
    workload: rollout.workload.name,
    style: rollout.style,
    replicas: totalReplicas,
    providers: rollout.traffic.providers.map((p) => p.provider),
    startGate: { kind: policy.firstStep },
    steps,
  };
}

function planStep(rollout: RolloutSpec, step: StepSpec, i: number, total: number, policy: GatePolicy): PlannedStep {
  const routed = rollout.traffic.providers.length > 0;
  const traffic = trafficOf(rollout, step, routed);
  const carries = hasCanaryRoutes(traffic);
  const wanted = canaryWanted(rollout, step, total, routed);
  const { canary, stable } = splitReplicas(rollout.style, total, wanted, carries);
  return {
    index: i + 1,
    canaryReplicas: canary,
    stableReplicas: stable,
    traffic,
    // With no stable pods left the stable Service must not go empty: ingress-nginx ignores a canary whose main backend has no endpoints (kubernetes/ingress-nginx#9635).
    serviceSelection: routed && hasTrafficSpec(step) && stable > 0 ? 'split' : 'shared',
    gate: gateAfter(rollout, step, i === rollout.steps.length - 1, policy),
  };
}

function canaryWanted(rollout: RolloutSpec, step: StepSpec, total: number, routed: boolean): number {
  if (step.replicas) return resolveAmount(step.replicas, total);
  const weight = step.weight ?? 0;
  if (!routed) return basicCanaryReplicas(total, weight, rollout.traffic.weightTotal);
  return Math.ceil((total * weight) / rollout.traffic.weightTotal - 1e-9);
}

/** A Kruise step with neither traffic nor matches leaves routing to Service selection, as Kruise does. */
function hasTrafficSpec(step: StepSpec): boolean {
  return (
    step.weight !== undefined || step.matches.length > 0 || step.headerRoutes.length > 0 || step.mirrorRoutes.length > 0
  );
}

function trafficOf(rollout: RolloutSpec, step: StepSpec, routed: boolean): TrafficState {
  return {
    weight: routed ? (step.weight ?? 0) : 0,
    weightTotal: rollout.traffic.weightTotal,
    matches: step.matches,
    headerRoutes: step.headerRoutes,
    mirrorRoutes: step.mirrorRoutes,
    ...(step.requestHeaderModifier ? { requestHeaderModifier: step.requestHeaderModifier } : {}),
  };
}
