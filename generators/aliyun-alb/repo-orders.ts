import type { SourceObject } from '../../src/model/resource-set';
import type { StepSpec } from '../../src/model/rollout';
import type { PeerRollout } from '../../src/contract/generator';
import { canaryName, DEFAULT_ORDER, headerCanaryName, isAlbCanary, ORDER, readOrder } from './annotations';
import { albConfigsByClass, DEFAULT_LISTENERS, ingressListeners } from './listener';
import type { AlbOptions } from './options';
import { allocateOrders, Allocation, CommittedOrder, Demand, HeldOrder } from './orders';

type Peer = PeerRollout<AlbOptions>;

/**
 * Every render and check of a run passes the same peer list (RepoPeers holds one per provider): the
 * allocation over it is computed once per run, not once per app and step (which made advance of many
 * apps on one listener quadratic).
 */
const allocated = new WeakMap<readonly Peer[], RepoAllocation>();

/** The orders every canary Ingress of every peer gets; the same for whichever peer asks. Pure (memoized on the list). */
export function repoOrders(peers: readonly Peer[]): Allocation {
  return repoAllocation(peers).allocation;
}

type RepoAllocation = {
  allocation: Allocation;
  held: HeldOrder[];
  demands: Demand[];
  committed: CommittedOrder[];
};

/** The allocation with its inputs (user-written orders, demands, committed canary orders), for the order map. Memoized on the list. */
export function repoAllocation(peers: readonly Peer[]): RepoAllocation {
  let result = allocated.get(peers);
  if (!result) allocated.set(peers, (result = allocate(peers)));
  return result;
}

function allocate(peers: readonly Peer[]): RepoAllocation {
  const albConfigs = albConfigsByClass(peers.flatMap((p) => p.resources.items.map((i) => i.object)));
  const listenersOf = (source: SourceObject): readonly string[] => {
    const r = ingressListeners(source.object, albConfigs);
    return 'listeners' in r ? r.listeners : DEFAULT_LISTENERS;
  };
  const held = heldOrders(peers, listenersOf);
  const all = peers.flatMap((p) => demands(p, listenersOf));
  const committed = committedOrders(peers, listenersOf);
  return { allocation: allocateOrders(held, all, committed), held, demands: all, committed };
}

/** The canary Ingress orders each app's committed output holds (once per app). */
function committedOrders(
  peers: readonly Peer[],
  listenersOf: (s: SourceObject) => readonly string[],
): CommittedOrder[] {
  const out: CommittedOrder[] = [];
  for (const app of [...new Set(peers.map((p) => p.app))]) {
    const committed = peers.find((p) => p.app === app)?.committed;
    for (const item of committed?.items ?? []) {
      const order = item.object.kind === 'Ingress' && isAlbCanary(item.object) ? readOrder(item.object) : undefined;
      if (order === undefined) continue;
      out.push({ app, ingress: item.object.metadata.name, origin: item.origin, order, listeners: listenersOf(item) });
    }
  }
  return out;
}

/**
 * The canary Ingresses a rollout could ever need for one stable Ingress, from its whole spec (not
 * the current step), so orders do not move from step to step: `<ing>-canary` when any step routes
 * to the canary, and `<ing>-canary-header` before it when a step has a match and a weight.
 */
export function canarySlots(steps: readonly StepSpec[], stable: string): string[] {
  const weighted = (s: StepSpec): boolean => (s.weight ?? 0) > 0;
  if (steps.some((s) => weighted(s) && s.matches.length > 0)) return [headerCanaryName(stable), canaryName(stable)];
  return steps.some((s) => weighted(s) || s.matches.length > 0) ? [canaryName(stable)] : [];
}

export function stableIngress(peer: Peer, name: string): SourceObject | undefined {
  return peer.resources.find('Ingress', name, peer.rollout.namespace);
}

/** Where an order problem points: the stable's order annotation, else the Ingress. */
export function orderOrigin(source: SourceObject): SourceObject['origin'] {
  return source.object.metadata.annotations?.[ORDER] !== undefined
    ? source.locate(['metadata', 'annotations', ORDER])
    : source.origin;
}

function demands(peer: Peer, listenersOf: (s: SourceObject) => readonly string[]): Demand[] {
  const out: Demand[] = [];
  for (const name of peer.options.ingresses) {
    const source = stableIngress(peer, name);
    const slots = canarySlots(peer.rollout.steps, name);
    if (!source || slots.length === 0) continue;
    const bound = readOrder(source.object) ?? DEFAULT_ORDER;
    out.push({
      app: peer.app,
      rollout: peer.rollout.name,
      ingress: name,
      origin: orderOrigin(source),
      bound,
      listeners: listenersOf(source),
      slots,
    });
  }
  return out;
}

/**
 * Orders every user-written Ingress of every app holds (once per app, however many rollouts it has),
 * leaving out the canary Ingresses rollgen itself renders there.
 */
function heldOrders(peers: readonly Peer[], listenersOf: (s: SourceObject) => readonly string[]): HeldOrder[] {
  const out: HeldOrder[] = [];
  for (const app of [...new Set(peers.map((p) => p.app))]) {
    const own = peers.filter((p) => p.app === app);
    const rendered = new Set(
      own.flatMap((p) => p.options.ingresses.flatMap((i) => [canaryName(i), headerCanaryName(i)])),
    );
    for (const item of own[0].resources.items) {
      if (item.object.kind !== 'Ingress' || rendered.has(item.object.metadata.name)) continue;
      const order = readOrder(item.object) ?? DEFAULT_ORDER;
      out.push({
        app,
        what: `Ingress "${item.object.metadata.name}"`,
        origin: orderOrigin(item),
        order,
        listeners: listenersOf(item),
      });
    }
  }
  return out;
}
