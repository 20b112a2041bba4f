import { allocateOrders, Demand, demandId, HeldOrder } from '../../generators/aliyun-alb/orders';
import { canarySlots } from '../../generators/aliyun-alb/repo-orders';
import type { StepSpec } from '../../src/model/rollout';

const origin = { file: 'f.yaml', line: 1, col: 1 };
const L80 = 'IngressClass alb|HTTP:80';
const L443 = 'IngressClass alb|HTTPS:443';

const held = (app: string, name: string, order: number, listeners = [L80]): HeldOrder => ({
  app,
  what: `Ingress "${name}"`,
  origin,
  order,
  listeners,
});
const demand = (app: string, bound: number, slots: number, listeners = [L80]): Demand => ({
  app,
  rollout: app,
  ingress: app,
  origin,
  bound,
  listeners,
  slots: slots === 2 ? [`${app}-canary-header`, `${app}-canary`] : [`${app}-canary`],
});

test('each canary gets a free order before its stable, weight nearest the stable, header before it', () => {
  const a = allocateOrders([held('a', 'a', 10), held('a', 'a-admin', 9)], [demand('a', 10, 2)]);
  expect(a.failures).toEqual([]);
  expect(Object.fromEntries(a.orders.get(demandId(demand('a', 10, 2)))!)).toEqual({
    'a-canary': 8,
    'a-canary-header': 7,
  });
});

test('orders are unique per listener, and the same listener is shared only by matching keys', () => {
  const demands = [demand('a', 10, 2), demand('b', 10, 2), demand('c', 10, 1, [L443]), demand('d', 10, 2, [L80, L443])];
  const a = allocateOrders([], demands);
  expect(a.failures).toEqual([]);
  const byListener = new Map<string, number[]>();
  for (const d of demands)
    for (const l of d.listeners)
      byListener.set(l, [...(byListener.get(l) ?? []), ...a.orders.get(demandId(d))!.values()]);
  for (const orders of byListener.values()) expect(new Set(orders).size).toBe(orders.length);
  // c is alone on 443 until d (on both) arrives: c keeps 9, d skips it on every listener it is on.
  expect(a.orders.get(demandId(demands[2]))!.get('c-canary')).toBe(9);
  expect([...a.orders.get(demandId(demands[3]))!.values()].every((o) => o < 6)).toBe(true);
});

test('the answer does not depend on the order of the input', () => {
  const demands = [demand('a', 10, 2), demand('b', 4, 1), demand('c', 10, 1), demand('d', 7, 2)];
  const heldOrders = [held('x', 'x', 3), held('y', 'y', 8)];
  const forward = allocateOrders(heldOrders, demands);
  const backward = allocateOrders([...heldOrders].reverse(), [...demands].reverse());
  expect([...backward.orders].sort()).toEqual([...forward.orders].sort());
});

test('tightest stable first, so a stable at 3 still fits when a stable at 10 needs many orders', () => {
  const a = allocateOrders([], [demand('a', 10, 2), demand('b', 3, 2)]);
  expect(a.failures).toEqual([]);
  expect([...a.orders.get(demandId(demand('b', 3, 2)))!.values()].sort()).toEqual([1, 2]);
});

test('no room: a stable at 1, or every order before the stable taken, fails with the holders and a suggestion', () => {
  const atOne = allocateOrders([], [demand('a', 1, 1)]);
  expect(atOne.failures.map((f) => [f.demand.app, f.blockers.length, f.suggestion])).toEqual([['a', 0, 2]]);
  const full = allocateOrders([held('b', 'b1', 1), held('b', 'b2', 2), held('b', 'b3', 4)], [demand('a', 3, 1)]);
  expect(full.failures.map((f) => [f.blockers.map((b) => b.what), f.suggestion])).toEqual([
    [['Ingress "b1"', 'Ingress "b2"'], 5],
  ]);
  expect(full.orders.size).toBe(0);
});

test('slots come from the whole spec: one canary for weight or match steps, a header canary too when a step has both', () => {
  const step = (weight: number | undefined, matches: number): StepSpec => ({
    origin,
    ...(weight !== undefined ? { weight } : {}),
    matches: Array.from({ length: matches }, () => ({
      headers: [{ name: 'h', type: 'Exact', value: 'v' }],
      queryParams: [],
      cookies: [],
    })),
    headerRoutes: [],
    mirrorRoutes: [],
    pause: { kind: 'manual' },
  });
  expect(canarySlots([step(undefined, 0)], 'w')).toEqual([]);
  expect(canarySlots([step(20, 0), step(undefined, 1)], 'w')).toEqual(['w-canary']);
  expect(canarySlots([step(undefined, 1), step(30, 1), step(100, 0)], 'w')).toEqual(['w-canary-header', 'w-canary']);
});
