import { Diagnostic, Origin, diagnosticAt } from '../diagnostics';
import { RolloutSpec, StepSpec } from '../model/rollout';
import { Gate } from '../model/plan';

/** Per-app choices from rollgen.yaml that change the format's default gates. */
export interface GatePolicy {
  /** The PR that starts a rollout (step 1). */
  readonly firstStep: 'manual' | 'automatic';
  /** Kruise steps written without any `pause` field. */
  readonly unpaused: 'manual' | 'automatic';
  /** Where rollgen.yaml writes `unpaused`, if it does: warned there on Argo rollouts, which it does not govern. */
  readonly unpausedAt?: Origin;
}

export const defaultGatePolicy: GatePolicy = { firstStep: 'manual', unpaused: 'manual' };

/** The gate after a step, per PRODUCT.md: Kruise pause rules (incl. a last `100%` step) and Argo's automatic runs. */
export function gateAfter(rollout: RolloutSpec, step: StepSpec, isLast: boolean, policy: GatePolicy): Gate {
  if (
    rollout.format !== 'argo' &&
    isLast &&
    step.replicas &&
    'percent' in step.replicas &&
    step.replicas.percent === 100
  ) {
    return { kind: 'automatic' };
  }
  switch (step.pause.kind) {
    case 'timed':
      return step.pause.seconds === 0 ? { kind: 'automatic' } : { kind: 'timed', seconds: step.pause.seconds };
    case 'manual':
      return { kind: 'manual' };
    case 'none':
      if (rollout.format === 'argo') return { kind: 'automatic' };
      return policy.unpaused === 'automatic' ? { kind: 'automatic' } : { kind: 'manual' };
  }
}

export function describeGate(gate: Gate): string {
  switch (gate.kind) {
    case 'manual':
      return 'manual';
    case 'timed':
      return `after ${gate.seconds}s`;
    case 'automatic':
      return 'automatic';
  }
}

/**
 * `unpaused` governs Kruise steps only: the Argo controller moves past a step without a `pause` as
 * soon as it is done, so rollgen gives such a step an automatic gate whatever the policy says.
 * Written on an app with Argo rollouts, the policy is said to be ignored there, at its line.
 */
export function unpausedPolicyWarnings(specs: readonly RolloutSpec[], policy: GatePolicy): Diagnostic[] {
  const argo = specs.filter((s) => s.format === 'argo').map((s) => s.name);
  if (!policy.unpausedAt || argo.length === 0) return [];
  const which = `Argo Rollout${argo.length > 1 ? 's' : ''} ${argo.join(', ')}`;
  const message =
    policy.unpaused === 'manual'
      ? `gates.unpaused: manual does not apply to ${which}: Argo steps without pause run on by themselves (as the Argo controller does), so rollgen merges them automatically; write \`pause: {}\` after a step in the Rollout to make a person approve the next one`
      : `gates.unpaused applies to Kruise steps only; the steps of ${which} without pause run on by themselves anyway; remove it`;
  return [diagnosticAt(policy.unpausedAt, message, 'warning')];
}
