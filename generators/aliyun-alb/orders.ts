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
 * Tightest bounds go first (so a stable at order 3 is served before one at 10), then by app,
 * rollout and Ingress, so the answer depends only on the inputs, never on who asks. Pure.
 */
export function allocateOrders(held: readonly HeldOrder[], demands: readonly Demand[]): Allocation {
  const taken: Taken = new Map();
  for (const h of held) hold(taken, h);
  const orders = new Map<string, Map<string, number>>();
  const failures: Failure[] = [];
  for (const d of [...demands].sort(byBoundThenName)) {
    const free = freeBelow(taken, d.listeners, d.bound).slice(0, d.slots.length);
    if (free.length < d.slots.length) {
      failures.push(failure(taken, d));
      continue;
    }
    // free is descending: the last slot (weight) gets the order nearest the stable.
    const assigned = new Map(d.slots.map((slot, i) => [slot, free[d.slots.length - 1 - i]] as const));
    for (const [slot, order] of assigned)
      hold(taken, { app: d.app, what: `canary Ingress "${slot}"`, origin: d.origin, order, listeners: d.listeners });
    orders.set(demandId(d), assigned);
  }
  return { orders, failures };
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
