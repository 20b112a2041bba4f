import type { Origin } from '../../src/diagnostics';
import { MAX_ORDER, MIN_ORDER } from './annotations';

/** An order some Ingress already holds on its listeners (a user-written Ingress, or a canary allocated before). */
export interface HeldOrder {
  readonly app: string;
  /** e.g. `Ingress "web"`, `canary Ingress "web-canary"`. */
  readonly what: string;
  readonly origin: Origin;
  readonly order: number;
  readonly listeners: readonly string[];
}

/** The canary Ingresses one stable Ingress of one rollout may ever need, each needing its own order. */
export interface Demand {
  readonly app: string;
  readonly rollout: string;
  readonly ingress: string;
  readonly origin: Origin;
  /** The stable Ingress's order: every canary must rank before it (a smaller number). */
  readonly bound: number;
  readonly listeners: readonly string[];
  /** Canary Ingress names, first = must rank first (header before weight). */
  readonly slots: readonly string[];
}

/** A canary Ingress order as an app's committed output holds it (what the cluster runs now). */
export interface CommittedOrder {
  readonly app: string;
  /** The canary Ingress's name. */
  readonly ingress: string;
  readonly origin: Origin;
  readonly order: number;
  readonly listeners: readonly string[];
}

export interface Failure {
  readonly demand: Demand;
  /** Orders below the bound on the demand's listeners, and who holds them. */
  readonly blockers: readonly HeldOrder[];
  /** The smallest stable order that would leave room, if any. */
  readonly suggestion?: number;
}

export interface Allocation {
  /** Canary Ingress name -> order, per demand (`demandId`). */
  readonly orders: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly failures: readonly Failure[];
}

export const demandId = (d: Pick<Demand, 'app' | 'rollout' | 'ingress'>): string =>
  `${d.app}\u0000${d.rollout}\u0000${d.ingress}`;

type Taken = Map<string, Map<number, HeldOrder>>;

/**
 * Gives every canary slot an order that is free on all the stable Ingress's listeners and smaller
 * than the stable's, the weight canary just before the stable and the header canary before it.
 * Orders are stable over time: an order a committed canary Ingress holds stays with it (no other
 * claim may take it while it is committed, openkruise/rollouts#128), and new claims take free
 * orders. Tightest bounds go first (so a stable at order 3 is served before one at 10), then by app,
 * rollout and Ingress, so the answer depends only on the inputs, never on who asks. Pure.
 */
export function allocateOrders(
  held: readonly HeldOrder[],
  demands: readonly Demand[],
  committed: readonly CommittedOrder[] = [],
): Allocation {
  const taken: Taken = new Map();
  for (const h of held) hold(taken, h);
  for (const c of [...committed].sort((a, b) => cmp(a.app, b.app) || cmp(a.ingress, b.ingress) || a.order - b.order))
    hold(taken, { ...c, what: committedWhat(c.ingress) });
  const orders = new Map<string, Map<string, number>>();
  const failures: Failure[] = [];
  for (const d of [...demands].sort(byBoundThenName)) {
    const assigned = assignSlots(taken, d, committed);
    if (!assigned) {
      failures.push(failure(taken, d));
      continue;
    }
    for (const [slot, order] of assigned)
      hold(taken, { app: d.app, what: `canary Ingress "${slot}"`, origin: d.origin, order, listeners: d.listeners });
    orders.set(demandId(d), assigned);
  }
  return { orders, failures };
}

const committedWhat = (ingress: string): string => `committed canary Ingress "${ingress}"`;

/**
 * From the slot nearest the stable down: keep the slot's committed order while it still ranks
 * before the next slot (or the stable) and is its own on every listener; else the highest free order below.
 */
function assignSlots(taken: Taken, d: Demand, committed: readonly CommittedOrder[]): Map<string, number> | undefined {
  const out = new Map<string, number>();
  let upper = d.bound;
  for (let i = d.slots.length - 1; i >= 0; i--) {
    const slot = d.slots[i];
    const own = committed.find(
      (c) => c.app === d.app && c.ingress === slot && c.listeners.join() === d.listeners.join(),
    );
    const keep = own && own.order < upper && holdsOwn(taken, d, own) ? own.order : undefined;
    const order = keep ?? freeBelow(taken, d.listeners, upper)[0];
    if (order === undefined) return undefined;
    out.set(slot, order);
    upper = order;
  }
  return new Map(d.slots.map((slot) => [slot, out.get(slot)!] as const));
}

function holdsOwn(taken: Taken, d: Demand, c: CommittedOrder): boolean {
  return d.listeners.every((l) => {
    const h = taken.get(l)?.get(c.order);
    return h !== undefined && h.app === c.app && h.what === committedWhat(c.ingress);
  });
}

function hold(taken: Taken, h: HeldOrder): void {
  for (const l of h.listeners) {
    const byOrder = taken.get(l) ?? new Map<number, HeldOrder>();
    if (!byOrder.has(h.order)) byOrder.set(h.order, h);
    taken.set(l, byOrder);
  }
}

/** Free on every listener; `except` (the stable itself, when asking where it could move) does not count. */
function isFree(taken: Taken, listeners: readonly string[], order: number, except?: Demand): boolean {
  return listeners.every((l) => {
    const h = taken.get(l)?.get(order);
    return !h || (except !== undefined && h.app === except.app && h.what === `Ingress "${except.ingress}"`);
  });
}

/** Free orders smaller than `bound`, highest first. */
function freeBelow(taken: Taken, listeners: readonly string[], bound: number, except?: Demand): number[] {
  const out: number[] = [];
  for (let o = Math.min(bound, MAX_ORDER + 1) - 1; o >= MIN_ORDER; o--)
    if (isFree(taken, listeners, o, except)) out.push(o);
  return out;
}

function failure(taken: Taken, d: Demand): Failure {
  const blockers = new Map<string, HeldOrder>();
  for (const l of d.listeners) {
    for (const [order, h] of taken.get(l) ?? []) if (order < d.bound) blockers.set(`${order}`, h);
  }
  const sorted = [...blockers.values()].sort((a, b) => a.order - b.order);
  const suggestion = suggestBound(taken, d);
  return { demand: d, blockers: sorted, ...(suggestion !== undefined ? { suggestion } : {}) };
}

/** The smallest free order above the bound with enough free orders below it, once the stable has moved there. */
function suggestBound(taken: Taken, d: Demand): number | undefined {
  for (let s = d.bound + 1; s <= MAX_ORDER; s++) {
    if (isFree(taken, d.listeners, s) && freeBelow(taken, d.listeners, s, d).length >= d.slots.length) return s;
  }
  return undefined;
}

function byBoundThenName(a: Demand, b: Demand): number {
  return a.bound - b.bound || cmp(a.app, b.app) || cmp(a.rollout, b.rollout) || cmp(a.ingress, b.ingress);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
