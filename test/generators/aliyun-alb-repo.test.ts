import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { AlbApp, ingressesOf, makeAlbRepo, WEIGHT_ONLY } from '../helpers/alb-repo';

const ORDER = 'alb.ingress.kubernetes.io/order';
const isCanary = (annotations: Readonly<Record<string, string>>): boolean =>
  annotations['alb.ingress.kubernetes.io/canary'] === 'true';

let repo: string;
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

/** Three apps on IngressClass alb HTTP:80 (one with a user Ingress at 9, one with its stable at 5) and one on HTTPS:443. */
const APPS: readonly AlbApp[] = [
  { name: 'alpha' },
  { name: 'bravo', steps: WEIGHT_ONLY, userIngresses: [{ name: 'bravo-admin', order: 9 }] },
  { name: 'charlie', order: 5 },
  { name: 'delta', listenPorts: '[{"HTTPS": 443}]' },
];
const LISTENER: Record<string, string> = { alpha: 'HTTP:80', bravo: 'HTTP:80', charlie: 'HTTP:80', delta: 'HTTPS:443' };

async function renderIngresses(app: string, step: number): Promise<ReturnType<typeof ingressesOf>> {
  const r = await runCli(['render', app, '--step', String(step)], repo);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return ingressesOf(r.stdout);
}

test('orders: unique per listener across apps, before the stable, header before weight, the same at every step', async () => {
  repo = makeAlbRepo(APPS);
  const seen = new Map<string, string>(); // canary Ingress -> order, over every app and step
  const user = new Map<string, { app: string; order: number }>(); // every Ingress the user wrote
  for (const app of APPS) {
    const steps = app.steps === WEIGHT_ONLY ? 2 : 3;
    for (let step = 0; step <= steps; step++) {
      for (const ing of await renderIngresses(app.name, step)) {
        if (!isCanary(ing.annotations)) {
          user.set(ing.name, { app: app.name, order: Number(ing.annotations[ORDER] ?? '10') });
          continue;
        }
        // THEN a canary Ingress has one order whatever step renders it
        expect([ing.name, seen.get(ing.name) ?? ing.annotations[ORDER]]).toEqual([ing.name, ing.annotations[ORDER]]);
        seen.set(ing.name, ing.annotations[ORDER]);
      }
    }
  }
  // every app of the default steps shows both canaries at some step; bravo (weight only) one
  expect([...seen.keys()].sort()).toEqual([
    'alpha-canary',
    'alpha-canary-header',
    'bravo-canary',
    'charlie-canary',
    'charlie-canary-header',
    'delta-canary',
    'delta-canary-header',
  ]);
  for (const [name, raw] of seen) {
    const order = Number(raw);
    const app = name.replace(/-canary(-header)?$/, '');
    expect(order).toBeGreaterThanOrEqual(1);
    expect(order).toBeLessThan(user.get(app)!.order);
    const sameListener = (other: string): boolean =>
      LISTENER[other.replace(/-canary(-header)?$/, '').replace(/-admin$/, '')] === LISTENER[app];
    const others = [
      ...[...seen].filter(([n]) => n !== name).map(([n, o]) => [n, Number(o)] as const),
      ...[...user].map(([n, u]) => [n, u.order] as const),
    ];
    expect(others.filter(([n, o]) => sameListener(n) && o === order)).toEqual([]);
  }
  for (const app of ['alpha', 'charlie', 'delta'])
    expect(Number(seen.get(`${app}-canary-header`))).toBeLessThan(Number(seen.get(`${app}-canary`)));
});

test('a user-written order in the way: validate and plan fail naming both apps and the fix', async () => {
  // alpha's stable is at 3 and needs two canaries; bravo's own Ingress holds 2, so only 1 is left.
  repo = makeAlbRepo([
    { name: 'alpha', order: 3 },
    { name: 'bravo', steps: WEIGHT_ONLY, userIngresses: [{ name: 'bravo-admin', order: 2 }] },
  ]);
  const expected =
    /apps\/alpha\/ingress\.yaml:\d+:\d+: app alpha, rollout alpha: no free alb\.ingress\.kubernetes\.io\/order for canary Ingress "alpha-canary-header" and "alpha-canary" of Ingress "alpha" \(order 3\) on listener HTTP:80 of IngressClass alb: orders 1-2 are held by app bravo \(Ingress "bravo-admin" order 2 at apps\/bravo\/ingress-bravo-admin\.yaml:\d+\); fix: raise Ingress "alpha" to alb\.ingress\.kubernetes\.io\/order: "4" .*or free orders below 3 in app bravo/;
  for (const args of [['validate'], ['plan', 'alpha'], ['render', 'bravo', '--step', '1']]) {
    const r = await runCli(args, repo);
    expect({ args, code: r.code }).toEqual({ args, code: 2 });
    expect(r.stderr).toMatch(expected);
  }
  // Alone, alpha fits (1 and 2 are free), so the error exists only because of bravo.
  expect((await runCli(['validate', path.join(repo, 'apps', 'alpha')], repo)).code).toBe(0);
});

test('the range before the stable is exhausted: the error names the app left out and the apps holding the orders', async () => {
  const names = ['echo-a', 'echo-b', 'echo-c', 'echo-d', 'echo-e'];
  repo = makeAlbRepo(names.map((name) => ({ name })));
  const r = await runCli(['validate'], repo);
  expect(r.code).toBe(2);
  // 4 apps x 2 canaries fill 2-9; echo-e (last by name) finds only order 1. Moving it to 11 would
  // still leave one free order (10 is the other stables'), so the fix says 12.
  expect(r.stderr).toMatch(
    /apps\/echo-e\/ingress\.yaml:1:1: app echo-e, rollout echo-e: no free .* orders 1-9 are held by app echo-d \(canary Ingress "echo-d-canary-header" order 2 .*app echo-a \(canary Ingress "echo-a-canary-header" order 8 .*fix: raise Ingress "echo-e" to alb\.ingress\.kubernetes\.io\/order: "12" .*or free orders below 10 in app echo-d, app echo-c, app echo-b, app echo-a/,
  );
  expect(r.stderr.match(/no free/g)).toHaveLength(1);
});

test('an app with errors elsewhere is left out of repo-wide checks with a note', async () => {
  repo = makeAlbRepo([{ name: 'alpha' }, { name: 'bravo' }]);
  const rollout = path.join(repo, 'apps', 'bravo', 'rollout.yaml');
  fs.writeFileSync(
    rollout,
    fs
      .readFileSync(rollout, 'utf8')
      .replace('name: bravo\n', 'name: missing\n')
      .replace(/(ingress:\n\s+classType: aliyun-alb\n\s+name:) bravo/, '$1 missing'),
  );
  const r = await runCli(['render', 'alpha', '--step', '2'], repo);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('note: app bravo has errors and is left out of repo-wide checks; run rollgen validate bravo\n');
  expect(
    ingressesOf(r.stdout)
      .filter((i) => isCanary(i.annotations))
      .map((i) => [i.name, i.annotations[ORDER]]),
  ).toEqual([
    ['alpha-canary', '9'],
    ['alpha-canary-header', '8'],
  ]);
});
