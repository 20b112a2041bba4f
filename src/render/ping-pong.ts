import { KubeObject } from '../model/kube';
import { TrafficState } from '../model/plan';
import { ResourceSet } from '../model/resource-set';
import { PingPongSide, PodMetadataPatch, RolloutSpec, otherSide } from '../model/rollout';
import { PING_PONG_LABEL, TrackLabel } from '../model/track';
import { RenderPhase } from './phase';
import { withTrackSelector } from './services';

/**
 * Argo pingPong, rendered with fixed Service selectors: the ping Service selects pods labelled
 * `ping`, the pong Service pods labelled `pong`. The stable Deployment's pods carry the stable
 * side, the canary's the other. At promotion traffic moves whole to the canary side (canary at
 * full size); at clean-up the stable Deployment takes the new version on that side, so its pods
 * join the Service already serving it, and the other Service is left with no pods and no traffic.
 */

/** The side that is stable in this rendering (set by pingPongSides). */
export function stableSideOf(rollout: RolloutSpec): PingPongSide | undefined {
  return rollout.pingPong ? (rollout.pingPong.stable ?? 'ping') : undefined;
}

/** The pod metadata patch with the side label added. */
export function withSide(patch: PodMetadataPatch, side: PingPongSide): PodMetadataPatch {
  return { ...patch, labels: { ...patch.labels, [PING_PONG_LABEL]: side } };
}

export const canarySide = (rollout: RolloutSpec): PingPongSide => otherSide(stableSideOf(rollout)!);

/** The canary at full size: promotion moved all traffic to it, and a drain after promotion keeps it so. */
export function canaryCarriesAll(phase: RenderPhase): boolean {
  return phase.kind === 'promoting' || (phase.kind === 'draining' && phase.promotion === true);
}

/** Promotion: every request goes to the canary side's Service; header and mirror routes are moot. */
export function promotionTraffic(weightTotal: number): TrafficState {
  return { weight: weightTotal, weightTotal, matches: [], headerRoutes: [], mirrorRoutes: [] };
}

/** Both Services, each selecting its side; while adopting they keep the user's selector. */
export function pingPongServices(rollout: RolloutSpec, resources: ResourceSet, phase: RenderPhase): KubeObject[] {
  const pp = rollout.pingPong!;
  const sides: [string, PingPongSide][] = [
    [pp.ping, 'ping'],
    [pp.pong, 'pong'],
  ];
  const side: TrackLabel = { key: PING_PONG_LABEL, stable: 'ping', canary: 'pong' };
  return sides.flatMap(([name, value]) => {
    const service = resources.find('Service', name, rollout.namespace)?.object;
    if (!service) return [];
    return [withTrackSelector(service, side, phase.kind === 'adopting' ? undefined : value)];
  });
}
