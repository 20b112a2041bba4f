import { RolloutSpec, StepSpec } from '../model/rollout';
import { Gate } from '../model/plan';

/** Per-app choices from rollgen.yaml that change the format's default gates. */
export interface GatePolicy {
  /** The PR that starts a rollout (step 1). */
  readonly firstStep: 'manual' | 'automatic';
  /** Kruise steps written without any `pause` field. */
  readonly unpaused: 'manual' | 'automatic';
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
