import { apportion, weighRoute } from '../../generators/istio/weights';
import type { Roles } from '../../generators/istio/vs';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

test('apportion hands out the whole total, however many remainders there are', () => {
  expect(apportion(5, [1, 1, 1])).toEqual([2, 2, 1]);
  expect(apportion(80, [1, 1, 1])).toEqual([27, 27, 26]);
  for (const total of [0, 1, 7, 50, 99, 100])
    for (const shares of [
      [1, 1, 1],
      [33, 33, 34],
      [0, 0, 0, 0, 0, 0, 0],
      [1, 2, 3, 4],
    ])
      expect(sum(apportion(total, shares))).toBe(total);
});

test('a rule split over three stable subsets still totals 100 after weighting', () => {
  const roles: Roles = {
    isStable: (d) => d.subset !== 'canary',
    isCanary: (d) => d.subset === 'canary',
    canaryFor: (s) => ({ host: s.host, subset: 'canary' }),
  };
  const route = ['a', 'b', 'c'].map((subset) => ({
    destination: { host: 'web', subset },
    weight: subset === 'c' ? 34 : 33,
  }));
  const out = weighRoute(route, roles, 10); // 90 over 33:33:34 = 29.7, 29.7, 30.6: two remainder points
  expect(out.map((d) => d.weight)).toEqual([30, 30, 30, 10]);
  expect(sum(out.map((d) => d.weight as number))).toBe(100);
});
