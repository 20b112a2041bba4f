import { cloneJson } from '../../src/model/kube';
import { destinationOf, Json, Roles } from './vs';

/**
 * Splits the app's share of one rule (its stable plus canary destinations) W : 100-W between
 * canary and stable. Destinations to anything else keep their weights, ports and headers, unlike
 * Argo's rewrite that deletes them (argo-rollouts #3125). The canary destination is appended after
 * the stable one when the source has none; a rule with no canary and W = 0 is left as written.
 */
export function weighRoute(
  route: readonly Json[],
  roles: Roles,
  weight: number,
  canaryExtras: Json = {},
  additionalSubsets: readonly string[] = [],
  experiments: readonly { readonly service: string; readonly weight: number }[] = [],
): Json[] {
  const given = route.map((d) => (typeof d.weight === 'number' ? d.weight : route.length === 1 ? 100 : 0));
  const stable = indexes(route, (d) => roles.isStable(d) && !roles.isCanary(d));
  const canary = indexes(route, (d) => roles.isCanary(d));
  if (canary.length === 0 && weight <= 0 && experiments.length === 0) return cloneJson(route) as Json[];
  const app = [...stable, ...canary].reduce((n, i) => n + given[i], 0);
  // Argo additionalSubsetNames: the canary gets exactly the step's weight of the whole rule, the extra
  // subsets keep theirs and stable gets what is left (never below 0).
  const extra = indexes(route, (d) => typeof d.subset === 'string' && additionalSubsets.includes(d.subset));
  const total = given.reduce((a, b) => a + b, 0);
  const canaryWeight = Math.min(app, Math.round(((extra.length > 0 ? total : app) * weight) / 100));
  // Argo's experiment weights: a destination per experiment Service (host only, as Argo adds it), taken from stable.
  const experimentWeights = experiments.map((e) => Math.round((app * e.weight) / 100));
  const stableShare = Math.max(0, app - canaryWeight - experimentWeights.reduce((a, b) => a + b, 0));
  const stableWeights = apportion(
    stableShare,
    stable.map((i) => given[i]),
  );
  const out: Json[] = [];
  route.forEach((d, i) => {
    if (canary.includes(i) && i !== canary[0]) return; // one canary destination is enough
    const w = canary[0] === i ? canaryWeight : stable.includes(i) ? stableWeights[stable.indexOf(i)] : given[i];
    out.push({ ...cloneJson(d), weight: w, ...(i === canary[0] ? canaryExtras : {}) });
  });
  if (canary.length === 0)
    out.push({ destination: roles.canaryFor(destinationOf(route[stable[0]])), weight: canaryWeight, ...canaryExtras });
  experiments.forEach((e, i) => out.push({ destination: { host: e.service }, weight: experimentWeights[i] }));
  return out;
}

function indexes(route: readonly Json[], pick: (destination: Json) => boolean): number[] {
  return route.flatMap((d, i) => (pick(destinationOf(d)) ? [i] : []));
}

/** `total` over parts in proportion to `shares` (equal when all are 0), whole numbers by largest remainder. */
export function apportion(total: number, shares: readonly number[]): number[] {
  if (shares.length === 0) return [];
  const sum = shares.reduce((a, b) => a + b, 0);
  const exact = shares.map((s) => (sum > 0 ? (total * s) / sum : total / shares.length));
  const out = exact.map(Math.floor);
  const order = exact.map((e, i) => ({ i, rest: e - Math.floor(e) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  const left = total - out.reduce((a, b) => a + b, 0); // fixed before the loop: the loop raises the sum it would re-read
  for (let k = 0; k < left; k++) out[order[k % order.length].i]++;
  return out;
}
