/** The partition behind `--shard K/N` (src/app/shards.ts): coupled apps together, every app once, stable. */
import { appsOfShard, coupledGroups, parseShard, shardOfGroup } from '../../src/app/shards';

const APPS = Array.from({ length: 400 }, (_, i) => `app-${String(i).padStart(3, '0')}`);

/** Every 10th app shares one nginx host with the next; apps 300.. share ALB orders; waves hold 5 targets. */
function keysOf(app: string): string[] {
  const n = Number(app.slice(4));
  if (n >= 300) return ['peers\u0000\u0000aliyun-alb'];
  return n % 10 === 0 || n % 10 === 1 ? [`claim\u0000\u0000host-${Math.floor(n / 10)}`] : [`claim\u0000\u0000own-${n}`];
}
const WAVES = [['app-005', 'app-123'], ['app-250'], ['app-077', 'app-005']];

const groupOf = (groups: string[][], app: string) => groups.findIndex((g) => g.includes(app));

test('GIVEN apps coupled by a route claim, a repo-wide provider and the waves WHEN grouped THEN each coupling is one group', () => {
  const groups = coupledGroups(APPS, keysOf, [WAVES.flat()]);
  const name = (n: number) => `app-${String(n).padStart(3, '0')}`;
  for (let h = 0; h < 30; h++) expect(groupOf(groups, name(h * 10))).toBe(groupOf(groups, name(h * 10 + 1)));
  expect(groupOf(groups, 'app-010')).toBe(groupOf(groups, 'app-011'));
  expect(groupOf(groups, 'app-010')).not.toBe(groupOf(groups, 'app-012'));
  // All ALB apps of the cluster: one group of 100.
  expect(groups[groupOf(groups, 'app-300')]).toHaveLength(100);
  // Every target of every wave, and app-251, which shares app-250's host.
  const fleet = groups[groupOf(groups, 'app-005')];
  expect(fleet).toEqual(['app-005', 'app-077', 'app-123', 'app-250', 'app-251']);
  // Groups are disjoint and cover every app once.
  expect(groups.flat().sort()).toEqual(APPS);
});

test('GIVEN N shards WHEN each takes its part THEN every app is in exactly one, coupled apps in the same one, and the parts are balanced', () => {
  const groups = coupledGroups(APPS, keysOf, [WAVES.flat()]);
  const parts = [1, 2, 3, 4].map((index) => appsOfShard(groups, { index, count: 4 }));
  expect(parts.flat().sort()).toEqual(APPS);
  expect(new Set(parts.flat()).size).toBe(APPS.length);
  const shardOf = (app: string) => parts.findIndex((p) => p.includes(app));
  for (const g of groups) expect(new Set(g.map(shardOf)).size).toBe(1);
  // 300 apps outside the ALB group, 4 shards: none is empty or takes nearly all of them.
  for (const p of parts.map((p) => p.filter((a) => Number(a.slice(4)) < 300))) expect(p.length).toBeGreaterThan(40);
});

test('GIVEN the same repository in another order, or with other apps added WHEN partitioned THEN no app changes shard', () => {
  const groups = coupledGroups(APPS, keysOf, [WAVES.flat()]);
  const shuffled = coupledGroups([...APPS].reverse(), keysOf, [[...WAVES.flat()].reverse()]);
  expect(shuffled).toEqual(groups);
  const more = [...APPS, 'zz-new-1', 'aa-new-2'];
  const grown = coupledGroups(more, (a) => (a.includes('new') ? [] : keysOf(a)), [WAVES.flat()]);
  for (const index of [1, 2, 3]) {
    const before = appsOfShard(groups, { index, count: 3 });
    const after = appsOfShard(grown, { index, count: 3 }).filter((a) => !a.includes('new'));
    expect(after).toEqual(before);
  }
  expect(shardOfGroup(['b', 'a'], 7)).toBe(shardOfGroup(['a'], 7));
});

test('parseShard takes K/N with 1 <= K <= N only', () => {
  expect(parseShard('3/4')).toEqual({ index: 3, count: 4 });
  expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
  for (const bad of ['0/4', '5/4', '4', '1/0', '01/4', '1/4/2', 'x/4', ' 1 / 4', '1.5/4', ''])
    expect(parseShard(bad)).toBeUndefined();
});
