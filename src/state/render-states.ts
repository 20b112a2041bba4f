import { InputError } from '../errors';
import { TrackLabel } from '../model/track';
import { RenderPhase } from '../render/phase';
import { RolloutRenderState } from '../render/render-app';
import type { LoadedApp, LoadedRollout } from '../spec/loaded-app';
import type { OutputSnapshot } from './app-state';
import { renderPhaseOf } from './lifecycle';
import { canaryPodOf, pingPongStablePod } from './pods';
import type { RolloutStatus } from './status';

/** What to render for each rollout: its phase and the pods each side runs. Pure. */

export function renderState(
  r: LoadedRollout,
  output: OutputSnapshot,
  phase: RenderPhase,
  track: TrackLabel,
  status?: RolloutStatus,
): RolloutRenderState {
  const canaryPod = canaryPodOf(r, output, phase, track, status);
  const side = r.spec.pingPong ? { stableSide: status?.pingPong ?? recordedSide(output, r) } : {};
  return { rollout: r, phase, stablePod: pingPongStablePod(r, output, track, status), canaryPod, ...side };
}

/** Every rollout in the state the output's status records (drift, simulate). */
export function recordedStates(app: LoadedApp, output: OutputSnapshot, track: TrackLabel): RolloutRenderState[] {
  return app.rollouts.map((r) => {
    const status = output.status?.rollouts.find((s) => s.name === r.spec.name);
    return renderState(r, output, renderPhaseOf(status), track, status);
  });
}

/** The side the output's status records for the rollout (render --step, simulate: the state the output is in). */
function recordedSide(output: OutputSnapshot, r: LoadedRollout): RolloutStatus['pingPong'] {
  return output.status?.rollouts.find((s) => s.name === r.spec.name)?.pingPong ?? 'ping';
}

/** `render --step N`: every rollout at step N (0 = stable only), from the current stable state. */
export function statesAtStep(
  app: LoadedApp,
  output: OutputSnapshot,
  step: number,
  track: TrackLabel,
): RolloutRenderState[] {
  return app.rollouts.map((r) => {
    if (step > r.plan.steps.length) {
      throw new InputError([
        {
          ...r.spec.origin,
          message: `rollout ${r.spec.name} has ${r.plan.steps.length} steps; --step ${step} does not exist`,
          severity: 'error',
        },
      ]);
    }
    return renderState(r, output, step === 0 ? { kind: 'stable' } : { kind: 'step', step }, track);
  });
}
