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

/** Warned at each such step: `plan` and the PR body would otherwise show only the routed share. */
export function allTrafficWarnings(spec: RolloutSpec, plan: Plan): Diagnostic[] {
  if (spec.traffic.providers.length === 0) return [];
  return plan.steps.flatMap((step, i) => {
    const origin = spec.steps[i]?.origin;
    if (!servesAllTraffic(step) || !origin) return [];
    const { weight, weightTotal } = step.traffic;
    const share = weightTotal === 100 ? `${weight}%` : `${weight}/${weightTotal}`;
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
