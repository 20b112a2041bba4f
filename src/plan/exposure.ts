import { Diagnostic } from '../diagnostics';
import { Plan, PlannedStep } from '../model/plan';
import { RolloutSpec } from '../model/rollout';
import { servesAllTraffic, weightOf } from './traffic-label';

const pods = (n: number) => `${n} canary pod${n === 1 ? '' : 's'}`;

/**
 * What a routed rollout's pods cannot carry as its plan routes it, warned at each step concerned:
 * the new version serving all traffic where the step routes a share, more traffic on fewer canary
 * pods than the step before, all traffic on fewer canary pods than the app's replicas.
 */
export function exposureWarnings(spec: RolloutSpec, plan: Plan): Diagnostic[] {
  if (spec.traffic.providers.length === 0) return [];
  return plan.steps.flatMap((step, i) => {
    const origin = spec.steps[i]?.origin;
    if (!origin) return [];
    const found = [allTraffic(spec, plan, step), shrinking(step, plan.steps[i - 1]), undersized(plan, step)];
    return found.flatMap((message) =>
      message ? [{ ...origin, message: `rollout ${spec.name}: ${message}`, severity: 'warning' as const }] : [],
    );
  });
}

/** `plan` and the PR body say so too (traffic-label.ts); the warning points at the step. */
function allTraffic(spec: RolloutSpec, plan: Plan, step: PlannedStep): string | undefined {
  if (!servesAllTraffic(step)) return undefined;
  return (
    `step ${step.index} routes ${weightOf(step.traffic)} to the canary, but its ${pods(step.canaryReplicas)} are ` +
    `all ${plan.replicas} replicas (${spec.style} style): with no stable pod the stable Service selects the canary ` +
    'pods too, so the new version serves all traffic. Add replicas or give the step fewer canary pods'
  );
}

/** Replicas 2 at 40%, then 1 at 60% (Kruise compares only replicas of one kind; Argo's setCanaryScale persists). */
function shrinking(step: PlannedStep, before: PlannedStep | undefined): string | undefined {
  if (!before || step.canaryReplicas >= before.canaryReplicas) return undefined;
  const [now, then] = [step.traffic, before.traffic];
  if (now.weight * then.weightTotal <= then.weight * now.weightTotal) return undefined;
  return (
    `step ${step.index} sends the canary ${weightOf(now)} on ${pods(step.canaryReplicas)}, fewer than step ` +
    `${before.index}'s ${before.canaryReplicas} at ${weightOf(then)}: each canary pod takes a larger share at once. ` +
    "Keep the canary's replicas growing with its traffic"
  );
}

/** Argo's setCanaryScale persists into `setWeight: 100`: the canary pods carry the whole load. */
function undersized(plan: Plan, step: PlannedStep): string | undefined {
  const { weight, weightTotal } = step.traffic;
  if (weight < weightTotal || step.canaryReplicas === 0 || step.canaryReplicas >= plan.replicas) return undefined;
  return (
    `step ${step.index} sends all traffic to ${pods(step.canaryReplicas)} while the app runs ${plan.replicas} ` +
    'replicas: they carry the whole load. Scale the canary to the full replicas first (Argo: setCanaryScale ' +
    'matchTrafficWeight: true, or a larger one)'
  );
}
