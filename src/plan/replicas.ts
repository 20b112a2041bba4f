import { ReplicaAmount } from '../model/rollout';

/** `N%` of total rounded up, clamped to [0, total] (Kruise and Argo both round up). */
export function resolveAmount(amount: ReplicaAmount, total: number): number {
  const raw = 'count' in amount ? amount.count : Math.ceil((total * amount.percent) / 100 - 1e-9);
  return Math.max(0, Math.min(total, raw));
}

export interface ReplicaSplit {
  readonly canary: number;
  readonly stable: number;
}

/**
 * Canary style adds canary pods beside a full stable set; partition style replaces stable pods.
 * A step that sends traffic always gets at least one canary pod.
 */
export function splitReplicas(
  style: 'canary' | 'partition',
  total: number,
  canaryWanted: number,
  carriesTraffic: boolean,
): ReplicaSplit {
  const floor = carriesTraffic && total > 0 ? 1 : 0;
  const canary = Math.max(canaryWanted, floor);
  if (style === 'canary') return { canary, stable: total };
  return { canary: Math.min(canary, total), stable: Math.max(0, total - canary) };
}

/** Argo without traffic routing approximates the weight with pods; keep one pod on each side for 1..99%. */
export function basicCanaryReplicas(total: number, weight: number, weightTotal: number): number {
  const canary = Math.ceil((total * weight) / weightTotal - 1e-9);
  if (weight > 0 && weight < weightTotal && total >= 2) return Math.min(Math.max(canary, 1), total - 1);
  return Math.max(0, Math.min(total, canary));
}
