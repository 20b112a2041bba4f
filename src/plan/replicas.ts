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

/**
 * Argo without traffic routing approximates the weight with pods: of the counts around
 * total x weight (floor and ceiling, on `total` pods or, when maxSurge allows, `total + 1`), the
 * one closest to the weight wins; a tie between floor and ceiling takes the ceiling. For a weight
 * strictly between 0 and the total, neither side drops to zero pods once two pods are possible.
 * (Argo documents 41% of 10 as 4 canary / 6 stable; one replica at 49% keeps the stable pod.)
 */
export function argoBasicCanary(total: number, weight: number, weightTotal: number, maxSurge: number): ReplicaSplit {
  if (total === 0) return { canary: 0, stable: 0 };
  const ceil = Math.ceil((total * weight) / weightTotal);
  const floor = Math.floor((total * weight) / weightTotal);
  const tied = (pods: number) => ((pods * weight) / weightTotal) % 1 === 0.5;
  const zeroAllowed = weight === weightTotal || weight === 0 || (total === 1 && maxSurge === 0);
  const floorAllowed = floor !== 0 || zeroAllowed;
  const options: { canary: number; pods: number }[] = [];
  if (ceil < total || zeroAllowed) options.push({ canary: ceil, pods: total });
  if (!tied(total) && floorAllowed) options.push({ canary: floor, pods: total });
  if (maxSurge > 0) {
    options.push({ canary: ceil, pods: total + 1 });
    if (!tied(total + 1) && floorAllowed) options.push({ canary: floor, pods: total + 1 });
  }
  if (options.length === 0) return { canary: 0, stable: total };
  const delta = (o: { canary: number; pods: number }) => Math.abs((o.canary * weightTotal) / o.pods - weight);
  // The first option wins a tie in closeness.
  const best = options.reduce((a, b) => (delta(b) < delta(a) ? b : a));
  return { canary: best.canary, stable: best.pods - best.canary };
}

/** An Argo int-or-percent of the replicas; percentages round up (maxSurge) or down (maxUnavailable), as Argo does. */
export function scaledAmount(
  v: number | string | undefined,
  total: number,
  fallback: string,
  roundUp: boolean,
): number {
  const raw = v ?? fallback;
  if (typeof raw === 'number') return raw;
  const percent = Number.parseFloat(raw) / 100;
  return roundUp ? Math.ceil(total * percent - 1e-9) : Math.floor(total * percent + 1e-9);
}
