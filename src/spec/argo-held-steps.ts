import { PauseSpec, StepSpec } from '../model/rollout';

/**
 * Argo `experiment` and `plugin` steps hold the rollout until the experiment (or plugin) succeeds,
 * and abort it when it fails (rollout/canary.go completedCurrentCanaryStep; rollout/experiment.go
 * and rollout/stepplugin.go AddAbort). rollgen runs neither, so the gate of the step before becomes
 * one that never passes on its own: a person merges the next step once they have checked it. Before
 * any step (false) the caller holds the start instead. The field ledger warns at the step.
 */
export function holdForUnrunStep(steps: StepSpec[]): boolean {
  const previous = steps[steps.length - 1];
  if (previous) steps[steps.length - 1] = { ...previous, pause: combinedGate(previous.pause, { kind: 'manual' }) };
  return previous !== undefined;
}

/**
 * Two gates in a row after one step, as one: a manual one never passes on its own, so it stays
 * manual; two timed ones wait in turn (their sum); otherwise the one that holds.
 */
export function combinedGate(a: PauseSpec, b: PauseSpec): PauseSpec {
  if (a.kind === 'manual' || b.kind === 'manual') return { kind: 'manual' };
  if (a.kind === 'timed' && b.kind === 'timed') return { kind: 'timed', seconds: a.seconds + b.seconds };
  return b.kind === 'none' ? a : b;
}
