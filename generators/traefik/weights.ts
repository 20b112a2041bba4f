import type { Json } from './options';

/** Traefik reads an entry without `weight` as weight 1 (its CRD provider's default). */
export const writtenWeight = (entry: Json): number => (typeof entry.weight === 'number' ? entry.weight : 1);

/** The weights of one step: the stable/canary pair and every other entry of the weighted list. */
export interface StepWeights {
  readonly stable: number;
  readonly canary: number;
  readonly other: (entry: Json) => number;
}

/**
 * Argo sets the canary entry to W and the stable one to 100 - W and leaves other entries as
 * written, so another backend's share moves with the pair's new total (written `web: 3, legacy: 1`
 * gives legacy 25%; Argo's 80/20 step gives it 1%). rollgen keeps every other entry's share as
 * written (the stable entry standing for the pair; the canary entry's weight is rollgen's) and
 * splits only the pair's share: the pair weighs 100·m, each other entry its weight ·100·m/stable,
 * with the smallest m that keeps every weight a whole number, as Traefik's weights are integers.
 * Without other entries this is Argo's 100 - W and W.
 */
export function stepWeights(stableWritten: number, others: readonly Json[], canaryPercent: number): StepWeights {
  // A stable entry of weight 0 beside others is refused by check-weights; alone, the pair is all the traffic.
  const scaled = others.length > 0 && stableWritten > 0;
  const shared = others.map(writtenWeight).reduce(gcd, 0);
  const m = scaled ? stableWritten / gcd(stableWritten, 100 * shared) : 1;
  return {
    stable: (100 - canaryPercent) * m,
    canary: canaryPercent * m,
    other: (entry) => (scaled ? (writtenWeight(entry) * 100 * m) / stableWritten : writtenWeight(entry)),
  };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
