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
      // Argo runs on past a step without a pause; a person who wrote `unpaused: manual` gets the stricter gate.
      if (rollout.format === 'argo')
        return policy.unpausedAt && policy.unpaused === 'manual' ? { kind: 'manual' } : { kind: 'automatic' };
      return policy.unpaused === 'automatic' ? { kind: 'automatic' } : { kind: 'manual' };
  }
}

/**
 * The gate before step 1: a person by default (gates.firstStep). Under `firstStep: automatic` a
 * pause, experiment or plugin the Rollout writes before its first step still holds, as Argo holds
 * there: a person starts the rollout (a timed one too: the start gate has no landing of the new
 * version to count from; the normalizer warns at it).
 */
export function startGateOf(rollout: RolloutSpec, policy: GatePolicy): Gate {
  return { kind: rollout.startHold ? 'manual' : policy.firstStep };
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
 * `unpaused` on Argo rollouts: `manual` is honoured (stricter than Argo, which runs on past a step
 * without a pause) and said, since the plan then differs from what Argo would do; `automatic` is what
 * Argo does anyway, so it is warned as having no effect.
 */
export function unpausedPolicyWarnings(specs: readonly RolloutSpec[], policy: GatePolicy): Diagnostic[] {
  const argo = specs.filter((s) => s.format === 'argo').map((s) => s.name);
  if (!policy.unpausedAt || argo.length === 0) return [];
  const which = `Argo Rollout${argo.length > 1 ? 's' : ''} ${argo.join(', ')}`;
  const message =
    policy.unpaused === 'manual'
      ? `gates.unpaused: manual makes each step of ${which} written without pause wait for a person, where the Argo controller would run on by itself; write \`pause: {}\` in the Rollout to say so there instead`
      : `gates.unpaused: automatic has no effect on ${which}: Argo steps without pause run on by themselves anyway; remove it`;
  return [diagnosticAt(policy.unpausedAt, message, 'warning')];
}
