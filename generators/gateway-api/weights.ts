import { cloneJson } from '../../src/model/kube';
import type { HeaderModifier } from '../../src/model/rollout';
import { backendRefs, Json, refersTo, refWeight } from './route';

export const MAX_WEIGHT = 1_000_000;

export interface Backends {
  readonly stable: string;
  readonly canary: string;
  readonly namespace: string | undefined;
}

/** A copy of the stable ref (port, group, kind, namespace, filters) naming the canary Service, without a weight. */
export function canaryRef(stableRef: Json, canary: string): Json {
  const { weight: _weight, ...rest } = cloneJson(stableRef);
  return { ...rest, name: canary };
}

/**
 * The rule's backendRefs with the canary share W/T taken from the stable ref only, so any other
 * backend keeps its exact share: with no other weighted backend the stable ref gets T-W and the
 * canary W; otherwise other weights are scaled by T and the stable weight w splits into w(T-W) and
 * wW. The canary ref sits right after the stable ref, or where the user already wrote it (Argo's
 * plugin requires it in the route). W = 0 leaves the rule as written except a written canary ref,
 * which gets weight 0 so it carries nothing.
 */
export function weightedRefs(
  rule: Json,
  b: Backends,
  weight: number,
  total: number,
  modifier?: HeaderModifier,
): Json[] {
  const refs = backendRefs(rule).map((r) => cloneJson(r));
  const stable = refs.findIndex((r) => refersTo(r, b.stable, b.namespace));
  if (stable < 0) return refs;
  let canary = refs.findIndex((r) => refersTo(r, b.canary, b.namespace));
  if (weight <= 0) return canary < 0 ? refs : refs.map((r, i) => (i === canary ? { ...r, weight: 0 } : r));
  if (canary < 0) {
    refs.splice(stable + 1, 0, canaryRef(refs[stable], b.canary));
    canary = stable + 1;
  }
  const w = refWeight(refs[stable]);
  const others = refs.some((r, i) => i !== stable && i !== canary && refWeight(r) > 0);
  const [stableW, canaryW] = others ? [w * (total - weight), w * weight] : [total - weight, weight];
  return refs.map((r, i) => {
    if (i === stable) return { ...r, weight: stableW };
    if (i === canary) return withModifier({ ...r, weight: canaryW }, modifier);
    return others ? { ...r, weight: refWeight(r) * total } : r;
  });
}

/**
 * A RequestHeaderModifier merged into a filter list: the one already there (Gateway API allows one
 * per rule or ref) gets the rollout's set/add entries, replacing same-named ones, and its removals.
 */
export function mergeModifier(filters: readonly Json[], modifier: HeaderModifier): Json[] {
  const at = filters.findIndex((f) => f.type === 'RequestHeaderModifier');
  const existing = at >= 0 ? ((filters[at].requestHeaderModifier ?? {}) as Json) : {};
  const merge = (own: unknown, ours: readonly { name: string; value: string }[]): Json[] => {
    const names = new Set(ours.map((h) => h.name.toLowerCase()));
    const kept = (Array.isArray(own) ? (own as Json[]) : []).filter((h) => !names.has(String(h.name).toLowerCase()));
    return [...kept, ...ours.map((h) => ({ name: h.name, value: h.value }))];
  };
  const set = merge(existing.set, modifier.set);
  const add = merge(existing.add, modifier.add);
  const remove = [
    ...new Set([...(Array.isArray(existing.remove) ? (existing.remove as string[]) : []), ...modifier.remove]),
  ];
  const body: Json = {
    ...(set.length ? { set } : {}),
    ...(add.length ? { add } : {}),
    ...(remove.length ? { remove } : {}),
  };
  const filter = { type: 'RequestHeaderModifier', requestHeaderModifier: body };
  return at >= 0 ? filters.map((f, i) => (i === at ? filter : f)) : [...filters, filter];
}

function withModifier(ref: Json, modifier: HeaderModifier | undefined): Json {
  if (!modifier) return ref;
  const filters = Array.isArray(ref.filters) ? (ref.filters as Json[]) : [];
  return { ...ref, filters: mergeModifier(filters, modifier) };
}

/** The largest weight in a list, for the Gateway API bound. */
export function maxWeight(refs: readonly Json[]): number {
  return Math.max(0, ...refs.map(refWeight));
}
