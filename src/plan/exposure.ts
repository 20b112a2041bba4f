import { Diagnostic } from '../diagnostics';
import { Plan, PlannedStep } from '../model/plan';
import { RolloutSpec } from '../model/rollout';

/**
 * A routed step whose canary took every pod (partition style with few replicas: 60% of 2 is 2)
 * leaves the stable Service no pod of its own. It then selects the canary's (plan.ts: 'shared',
 * never an empty Service), so the new version serves all traffic, not the share the step routes.
 */
export function servesAllTraffic(step: PlannedStep): boolean {
  const { weight, weightTotal, matches } = step.traffic;
  const routes = weight > 0 || matches.length > 0;
  return (
    routes &&
    weight < weightTotal &&
    step.stableReplicas === 0 &&
    step.canaryReplicas > 0 &&
    step.serviceSelection === 'shared'
  );
}

/** The traffic of such a step in `plan` and the PR body. */
export const ALL_TRAFFIC = 'all (no stable pod)';

/** The warnings of a routed rollout's plan about what its pods can take. */
export function exposureWarnings(spec: RolloutSpec, plan: Plan): Diagnostic[] {
  if (spec.traffic.providers.length === 0) return [];
  return [
    ...allTrafficWarnings(spec, plan),
    ...shrinkingCanaryWarnings(spec, plan),
    ...undersizedFullTrafficWarnings(spec, plan),
  ];
}

/**
 * A step that routes all traffic to fewer canary pods than the app's replicas (Argo's setCanaryScale
 * persists into `setWeight: 100`): those pods carry the whole load. Warned at the step.
 */
function undersizedFullTrafficWarnings(spec: RolloutSpec, plan: Plan): Diagnostic[] {
  return plan.steps.flatMap((step, i) => {
    const origin = spec.steps[i]?.origin;
    const { weight, weightTotal } = step.traffic;
    if (!origin || weight < weightTotal || step.canaryReplicas >= plan.replicas || step.canaryReplicas === 0) return [];
    return [
      {
        ...origin,
        message:
          `rollout ${spec.name}: step ${step.index} sends all traffic to ${step.canaryReplicas} canary ` +
          `pod${step.canaryReplicas === 1 ? '' : 's'} while the app runs ${plan.replicas} replicas: they carry the whole load. ` +
          'Scale the canary to the full replicas first (Argo: setCanaryScale matchTrafficWeight: true, or a larger one)',
        severity: 'warning' as const,
      },
    ];
  });
}

const shareOf = (t: { weight: number; weightTotal: number }) =>
  t.weightTotal === 100 ? `${t.weight}%` : `${t.weight}/${t.weightTotal}`;

/**
 * A step that sends the canary more traffic on fewer pods than the step before (replicas 2 at 40%,
 * then 1 at 60%: Kruise compares only replicas of one kind, Argo's setCanaryScale persists):
 * each canary pod takes a larger share at once. Warned at the step.
 */
function shrinkingCanaryWarnings(spec: RolloutSpec, plan: Plan): Diagnostic[] {
  return plan.steps.flatMap((step, i) => {
    const before = plan.steps[i - 1];
    const origin = spec.steps[i]?.origin;
    if (!before || !origin || step.canaryReplicas >= before.canaryReplicas) return [];
    if (step.traffic.weight * before.traffic.weightTotal <= before.traffic.weight * step.traffic.weightTotal) return [];
    return [
      {
        ...origin,
        message:
          `rollout ${spec.name}: step ${step.index} sends the canary ${shareOf(step.traffic)} on ${step.canaryReplicas} ` +
          `pod${step.canaryReplicas === 1 ? '' : 's'}, fewer than step ${before.index}'s ${before.canaryReplicas} at ` +
          `${shareOf(before.traffic)}: each canary pod takes a larger share at once. Keep the canary's replicas growing with its traffic`,
        severity: 'warning' as const,
      },
    ];
  });
}

/** Warned at each such step: `plan` and the PR body would otherwise show only the routed share. */
function allTrafficWarnings(spec: RolloutSpec, plan: Plan): Diagnostic[] {
  return plan.steps.flatMap((step, i) => {
    const origin = spec.steps[i]?.origin;
    if (!servesAllTraffic(step) || !origin) return [];
    const share = shareOf(step.traffic);
    return [
      {
        ...origin,
        message:
          `rollout ${spec.name}: step ${step.index} routes ${share} to the canary, but its ${step.canaryReplicas} canary ` +
          `pods are all ${plan.replicas} replicas (${spec.style} style): with no stable pod the stable Service selects ` +
          'the canary pods too, so the new version serves all traffic. Add replicas or give the step fewer canary pods',
        severity: 'warning' as const,
      },
    ];
  });
}
