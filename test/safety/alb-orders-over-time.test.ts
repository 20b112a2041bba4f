import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { simulate } from '../../generators/aliyun-alb/simulate';
import { KubeObject } from '../../src/model/kube';
import { runCli } from '../helpers/cli';
import { AlbApp, HEADER_THEN_WEIGHT, makeAlbRepo, WEIGHT_ONLY, writeApp } from '../helpers/alb-repo';
import { addApp } from '../helpers/git-repo';

const ORDER = 'alb.ingress.kubernetes.io/order';
const CANARY = 'alb.ingress.kubernetes.io/canary';
let repo: string;
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

/** Every object of every app's committed output (never a fresh render). */
function committedObjects(): KubeObject[] {
  const deploy = path.join(repo, 'deploy');
  if (!fs.existsSync(deploy)) return [];
  return fs.readdirSync(deploy).flatMap((app) =>
    fs
      .readdirSync(path.join(deploy, app))
      .filter((f) => f !== 'kustomization.yaml' && f !== 'rollgen-status.yaml')
      .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(deploy, app, f), 'utf8')).map((d) => d.toJS())),
  );
}

const isCanary = (o: KubeObject) => o.kind === 'Ingress' && o.metadata.annotations?.[CANARY] === 'true';

/** Orders each committed canary Ingress has held, so a move while it is committed fails the test. */
const held = new Map<string, string>();

/**
 * The state git holds, over every app: no canary Ingress shares an order with another Ingress on the
 * listener, each keeps its order while committed, and the ALB simulator routes each canary's own
 * rule to it (a canary ALB could not create would send its requests to stable).
 */
async function checkCommitted(when: string): Promise<void> {
  const objects = committedObjects();
  const ingresses = objects.filter((o) => o.kind === 'Ingress');
  const orderOf = (o: KubeObject) => o.metadata.annotations?.[ORDER] ?? '10';
  for (const c of ingresses.filter(isCanary)) {
    const clash = ingresses.filter((o) => o !== c && orderOf(o) === orderOf(c)).map((o) => o.metadata.name);
    expect([when, c.metadata.name, clash]).toEqual([when, c.metadata.name, []]);
    expect([when, c.metadata.name, held.get(c.metadata.name) ?? orderOf(c)]).toEqual([
      when,
      c.metadata.name,
      orderOf(c),
    ]);
  }
  held.clear();
  for (const c of ingresses.filter(isCanary)) held.set(c.metadata.name, orderOf(c));
  for (const c of ingresses.filter(isCanary)) {
    const a = c.metadata.annotations!;
    const host = `${c.metadata.name.replace(/-canary(-header)?$/, '')}.example.com`;
    const canaryService = `${c.metadata.name.replace(/-canary(-header)?$/, '')}-canary`;
    const header = a[`${CANARY}-by-header`];
    const request = {
      host,
      path: '/',
      headers: header ? { [header]: a[`${CANARY}-by-header-value`] } : {},
      cookies: {},
      query: {},
    };
    const share = simulate(objects, request)?.backends.find((b) => b.service === canaryService)?.share ?? 0;
    const expected = header ? 1 : Number(a[`${CANARY}-weight`]) / 100;
    expect([when, c.metadata.name, share]).toEqual([when, c.metadata.name, expected]);
  }
  const validate = await runCli(['validate'], repo);
  expect([when, validate.stderr, validate.code]).toEqual([when, '', 0]);
}

async function advance(app: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) {
    const r = await runCli(['advance', app], repo);
    expect([app, r.stderr, r.code]).toEqual([app, '', 0]);
    expect(r.stdout).not.toMatch(/nothing to advance/);
    await checkCommitted(`${app} ${r.stdout.trim().split('\n')[0]}`);
  }
}

function bump(app: string, tag: string): void {
  const file = path.join(repo, 'apps', app, 'deployment.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/agnhost:\S+/, `agnhost:${tag}`));
}

async function join(app: AlbApp): Promise<void> {
  writeApp(path.join(repo, 'apps', app.name), app);
  await advance(app.name, 2); // adopt, select
  bump(app.name, '2.54');
}

function leave(app: string): void {
  fs.rmSync(path.join(repo, 'apps', app), { recursive: true });
  fs.rmSync(path.join(repo, 'deploy', app), { recursive: true });
}

test('three and then five apps join and leave an ALB listener: committed orders never collide nor move', async () => {
  const first: AlbApp[] = [
    { name: 'mike', order: 10 },
    { name: 'november', order: 10, steps: WEIGHT_ONLY },
    { name: 'oscar', order: 20 },
  ];
  repo = makeAlbRepo([]);
  for (const app of first) await join(app);
  await advance('mike', 2); // header, then header + weight: both canaries committed
  await advance('november', 1);
  await advance('oscar', 1);
  // alpha sorts before mike with the same stable order: a fresh allocation would hand it mike's orders.
  await join({ name: 'alpha', order: 10, steps: HEADER_THEN_WEIGHT });
  await advance('alpha', 2);
  await join({ name: 'bravo', order: 20, steps: WEIGHT_ONLY });
  await advance('bravo', 1);
  // Five apps hold canaries; now mike finishes and november leaves, freeing orders for papa.
  await advance('mike', 3);
  leave('november');
  await checkCommitted('november left');
  await join({ name: 'papa', order: 10 });
  await advance('papa', 2);
  await advance('oscar', 1);
  const plan = await runCli(['validate'], repo);
  expect(plan.stdout).toMatch(/ALB orders on listener HTTP:80 of IngressClass alb \(lower first\):\n/);
  expect(plan.stdout).toMatch(/ {2,}\d+ {2}alpha-canary +canary of app alpha \(committed\)\n/);
});

test('validate reports a collision in the committed outputs that fresh renders would hide', async () => {
  repo = makeAlbRepo([{ name: 'alpha' }, { name: 'bravo' }]);
  for (const app of ['alpha', 'bravo']) {
    await runCli(['advance', app], repo);
    await runCli(['advance', app], repo);
    bump(app, '2.54');
    await runCli(['advance', app], repo);
  }
  // A hand edit (or an older rollgen) left bravo's canary on alpha's order.
  const file = path.join(repo, 'deploy', 'bravo', 'ingress-bravo-canary.yaml');
  const alpha = fs.readFileSync(path.join(repo, 'deploy', 'alpha', 'ingress-alpha-canary.yaml'), 'utf8');
  const order = /order: "(\d+)"/.exec(alpha)![1];
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/order: "\d+"/, `order: "${order}"`));
  const r = await runCli(['validate'], repo);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    new RegExp(
      `deploy/alpha/ingress-alpha-canary.yaml:\\d+:\\d+: committed canary Ingress "alpha-canary" of app alpha holds alb.ingress.kubernetes.io/order ${order} on listener HTTP:80 of IngressClass alb, as Ingress "bravo-canary" of app bravo does`,
    ),
  );
  // The next render of bravo moves it to a free order, keeping alpha's.
  expect((await runCli(['advance', 'bravo', '--force'], repo)).code).toBe(0);
  expect(fs.readFileSync(file, 'utf8')).not.toContain(`order: "${order}"`);
  expect((await runCli(['validate'], repo)).code).toBe(0);
});

test('validate reports two committed nginx canaries on one host+path, which fresh renders cannot show', async () => {
  repo = makeAlbRepo([]);
  for (const name of ['echo-a', 'echo-b']) {
    addApp(repo, name);
    await runCli(['advance', name], repo);
    await runCli(['advance', name], repo);
    const file = path.join(repo, 'apps', name, 'deployment.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/agnhost:\S+/, 'agnhost:2.54'));
    expect((await runCli(['advance', name], repo)).code).toBe(0);
  }
  expect((await runCli(['validate'], repo)).code).toBe(0);
  const file = path.join(repo, 'deploy', 'echo-b', 'ingress-echo-b-canary.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/echo-b\.example\.com/g, 'echo-a.example.com'));
  const r = await runCli(['validate'], repo);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^deploy\/echo-a\/ingress-echo-a-canary.yaml:2:1: committed canary Ingress "echo-a-canary" of app echo-a shares IngressClass nginx host echo-a.example.com path \/ with echo-b\/echo-b-canary/,
  );
});
