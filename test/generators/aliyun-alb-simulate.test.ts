import * as fs from 'fs';
import { parseAllDocuments } from 'yaml';
import alb from '../../generators/aliyun-alb';
import type { SimRequest } from '../../src/contract/generator';
import { KubeObject } from '../../src/model/kube';
import { runCli } from '../helpers/cli';
import { makeAlbRepo } from '../helpers/alb-repo';
import { canaryShare as shareOf, goldenCases, loadGoldenApp, objectsAt } from '../helpers/golden-app';
import { expectNoDeadBackends, lifecycleTransitions } from '../helpers/transitions';

const CASES = goldenCases('aliyun-alb');
const ORDER = 'alb.ingress.kubernetes.io/order';
const load = (name: string) => loadGoldenApp('aliyun-alb', name);

const request = (
  host: string,
  headers: Record<string, string> = {},
  cookies: Record<string, string> = {},
): SimRequest => ({ host, path: '/', headers, cookies, query: {} });

const canaryShare = (objects: readonly KubeObject[], req: SimRequest): number => shareOf(objects, [alb], req);

describe.each(CASES)('aliyun-alb simulator: %s', (name) => {
  const app = load(name);
  const steps = app.rollouts[0].plan.steps;
  const host = 'echo.example.com';

  test.each(steps.map((s) => [s.index, s] as const))(
    'step %i sends exactly the planned share to the canary',
    (_i, step) => {
      const objects = objectsAt(app, { kind: 'step', step: step.index });
      expect(canaryShare(objects, request(host, { 'x-other': '1' }))).toBeCloseTo(step.traffic.weight / 100, 6);
      for (const m of step.traffic.matches) {
        for (const h of m.headers) {
          expect(canaryShare(objects, request(host, { [h.name]: h.value }))).toBe(1);
          expect(canaryShare(objects, request(host, { [h.name]: `${h.value}-not` }))).toBeCloseTo(
            step.traffic.weight / 100,
            6,
          );
        }
        for (const c of m.cookies) {
          expect(canaryShare(objects, request(host, {}, { [c.name]: 'always' }))).toBe(1);
          expect(canaryShare(objects, request(host, {}, { [c.name]: 'never' }))).toBeCloseTo(
            step.traffic.weight / 100,
            6,
          );
        }
      }
    },
  );

  test('stable only: nothing reaches a canary, and no canary Ingress exists', () => {
    const objects = objectsAt(app, { kind: 'stable' });
    expect(canaryShare(objects, request(host, { 'x-canary': 'on', 'user-agent': 'pc' }, { beta: 'always' }))).toBe(0);
    expect(objects.filter((o) => o.kind === 'Ingress').map((o) => o.metadata.name)).toEqual(['echoserver']);
  });

  test('no request reaches a backend without ready pods, across every pair of adjacent states and an abort', () => {
    const requests = [
      request(host),
      request(host, { 'x-canary': 'on' }),
      request(host, { 'user-agent': 'pc' }),
      request(host, {}, { beta: 'always' }),
    ];
    expectNoDeadBackends(app, lifecycleTransitions(steps.length, 2), requests, [alb]);
  });
});

describe('two apps on one listener, both in a header step at once', () => {
  let repo: string;
  let objects: KubeObject[];
  beforeAll(async () => {
    repo = makeAlbRepo([{ name: 'echoserver' }, { name: 'echoserver-clone' }]);
    objects = [];
    for (const app of ['echoserver', 'echoserver-clone']) {
      const r = await runCli(['render', app, '--step', '1'], repo);
      expect(r.code).toBe(0);
      objects.push(...parseAllDocuments(r.stdout).map((d) => d.toJS() as KubeObject));
    }
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  const serviceFor = (objs: readonly KubeObject[], host: string, headers: Record<string, string>): string[] =>
    (alb.simulate(objs, request(host, headers))?.backends ?? []).map((b) => b.service);
  const withOrder = (order: (o: KubeObject) => string): KubeObject[] =>
    objects.map((o) =>
      o.kind === 'Ingress' && o.metadata.name.endsWith('-canary')
        ? { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [ORDER]: order(o) } } }
        : o,
    );

  test('rollgen orders: each header request reaches its own canary, other requests stay stable', () => {
    for (const app of ['echoserver', 'echoserver-clone']) {
      expect(serviceFor(objects, `${app}.example.com`, { 'x-canary': 'on' })).toEqual([`${app}-canary`]);
      expect(serviceFor(objects, `${app}.example.com`, {})).toEqual([app]);
    }
  });

  test("negative control: Kruise's order 1 on both canaries loses one app's canary rule", () => {
    const kruise = withOrder(() => '1');
    const reached = ['echoserver', 'echoserver-clone'].filter(
      (app) => serviceFor(kruise, `${app}.example.com`, { 'x-canary': 'on' })[0] === `${app}-canary`,
    );
    expect(reached.length).toBeLessThan(2);
  });

  test('negative control: a header canary ordered after its stable is never reached', () => {
    const late = withOrder(() => '11');
    for (const app of ['echoserver', 'echoserver-clone'])
      expect(serviceFor(late, `${app}.example.com`, { 'x-canary': 'on' })).toEqual([app]);
  });
});
