import generator from '../../generators/gateway-api';
import { NO_BACKEND, simulate } from '../../generators/gateway-api/simulate';
import type { SimRequest } from '../../src/contract/generator';
import type { KubeObject } from '../../src/model/kube';
import type { RenderPhase } from '../../src/render/phase';
import { simulateRequest } from '../../src/simulate/simulate';
import { syncMoments } from '../../src/simulate/transition';
import { canaryShare as shareOf, deadPods, loadGoldenApp, objectsAt } from '../helpers/golden-app';
import { lifecycleTransitions } from '../helpers/transitions';

type Json = Record<string, unknown>;
const req = (p: Partial<SimRequest> = {}): SimRequest => ({ path: '/', headers: {}, cookies: {}, query: {}, ...p });
const httpRoute = (name: string, rules: Json[], spec: Json = {}): KubeObject => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name },
  spec: { ...spec, rules },
});
const to = (service: string, weight?: number): Json => ({
  name: service,
  port: 80,
  ...(weight !== undefined ? { weight } : {}),
});
const served = (objects: KubeObject[], r: SimRequest) =>
  simulate(objects, r)
    ?.backends.map((b) => b.service)
    .join(',');

describe('Gateway API precedence', () => {
  const rules: Json[] = [
    { backendRefs: [to('root')] },
    { matches: [{ path: { type: 'PathPrefix', value: '/a' } }], backendRefs: [to('prefix-a')] },
    { matches: [{ path: { type: 'PathPrefix', value: '/a/b' } }], backendRefs: [to('prefix-ab')] },
    { matches: [{ path: { type: 'Exact', value: '/a/b' } }], backendRefs: [to('exact-ab')] },
    { matches: [{ path: { type: 'PathPrefix', value: '/m' }, method: 'POST' }], backendRefs: [to('method')] },
    {
      matches: [
        {
          path: { type: 'PathPrefix', value: '/m' },
          headers: [
            { name: 'x-a', value: '1' },
            { name: 'x-b', value: '1' },
          ],
        },
      ],
      backendRefs: [to('two-headers')],
    },
    {
      matches: [{ path: { type: 'PathPrefix', value: '/m' }, headers: [{ name: 'x-a', value: '1' }] }],
      backendRefs: [to('one-header')],
    },
    {
      matches: [{ path: { type: 'PathPrefix', value: '/m' }, queryParams: [{ name: 'q', value: '1' }] }],
      backendRefs: [to('query')],
    },
    {
      matches: [{ path: { type: 'PathPrefix', value: '/m' }, queryParams: [{ name: 'q', value: '1' }] }],
      backendRefs: [to('query-second')],
    },
  ];
  const objects = [httpRoute('r', rules)];

  test.each([
    ['/a/b', {}, {}, undefined, 'exact-ab'],
    ['/a/b/c', {}, {}, undefined, 'prefix-ab'],
    ['/a/bc', {}, {}, undefined, 'prefix-a'],
    ['/other', {}, {}, undefined, 'root'],
    ['/m', { 'X-A': '1', 'x-b': '1' }, { q: '1' }, 'POST', 'method'],
    ['/m', { 'X-A': '1', 'x-b': '1' }, { q: '1' }, 'GET', 'two-headers'],
    ['/m', { 'x-a': '1' }, { q: '1' }, 'GET', 'one-header'],
    ['/m', {}, { q: '1' }, 'GET', 'query'],
    ['/m', {}, { Q: '1' }, 'GET', 'root'],
  ])('%s headers %j query %j %s -> %s', (p, headers, query, method, expected) => {
    expect(served(objects, req({ path: p, headers, query, ...(method ? { method } : {}) }))).toBe(expected);
  });

  test('hostnames: exact over wildcard over none; a route for another host does not match', () => {
    const routes = [
      httpRoute('any', [{ backendRefs: [to('any')] }]),
      httpRoute('wild', [{ backendRefs: [to('wild')] }], { hostnames: ['*.example.com'] }),
      httpRoute('exact', [{ backendRefs: [to('exact')] }], { hostnames: ['web.example.com'] }),
    ];
    expect(served(routes, req({ host: 'web.example.com' }))).toBe('exact');
    expect(served(routes, req({ host: 'api.example.com' }))).toBe('wild');
    expect(served(routes, req({ host: 'example.org' }))).toBe('any');
    expect(served([routes[2]!], req({ host: 'example.org' }))).toBeUndefined();
  });

  test('weights split by weight/sum (default 1); all-zero weights answer 500; mirrors are noted', () => {
    const r = httpRoute('r', [
      {
        filters: [{ type: 'RequestMirror', requestMirror: { backendRef: to('shadow'), percent: 10 } }],
        backendRefs: [to('a', 3), to('b'), to('c', 0)],
      },
    ]);
    expect(simulate([r], req())).toEqual({
      backends: [
        { service: 'a', share: 0.75 },
        { service: 'b', share: 0.25 },
      ],
      rule: 'HTTPRoute r rule 1: a 3, b 1, c 0; mirror 10% to shadow',
    });
    expect(served([httpRoute('z', [{ backendRefs: [to('a', 0)] }])], req())).toBe(NO_BACKEND);
  });
});

const load = (name: string) => loadGoldenApp('gateway-api', name);

/** Share of a request that lands on canary pods, through the real Service selectors. */
const canaryShare = (objects: readonly KubeObject[], r: SimRequest): number => shareOf(objects, [generator], r);

describe('golden steps: each step sends what the plan says', () => {
  test('kruise-weight-steps: every step gives the canary exactly its planned weight', () => {
    const app = load('kruise-weight-steps');
    const r = req({ host: 'echo.example.com', path: '/any' });
    for (const step of app.rollouts[0]!.plan.steps) {
      expect(canaryShare(objectsAt(app, { kind: 'step', step: step.index }), r)).toBeCloseTo(
        step.traffic.weight / step.traffic.weightTotal,
        9,
      );
    }
    expect(canaryShare(objectsAt(app, { kind: 'stable' }), r)).toBe(0);
  });

  test('kruise-matches-crossed: matched requests reach the canary only inside the paths the stable rules serve', () => {
    const app = load('kruise-matches-crossed');
    const at = (step: number) => objectsAt(app, { kind: 'step', step });
    const host = 'shop.example.com';
    const canaryHeaders = { user_id: '1234', canary: 'true' };
    // Step 1: (user_id~123.* AND canary=true) OR ?beta=1, each ANDed with the rule's own matches.
    expect(canaryShare(at(1), req({ host, path: '/store/x', headers: { version: 'v2', ...canaryHeaders } }))).toBe(1);
    expect(canaryShare(at(1), req({ host, path: '/store/x', headers: { version: 'v2', user_id: '1234' } }))).toBe(0);
    expect(
      simulateRequest(at(1), [generator], req({ host, path: '/store/x', headers: canaryHeaders })),
    ).toBeUndefined(); // the rule's own version=v2 still applies
    expect(canaryShare(at(1), req({ host, path: '/v2/store', query: { beta: '1' } }))).toBe(1);
    expect(canaryShare(at(1), req({ host, path: '/storage/a', query: { beta: '1' } }))).toBe(1);
    expect(simulateRequest(at(1), [generator], req({ host, path: '/list', headers: canaryHeaders }))?.services).toEqual(
      [{ service: 'list-svc', share: 1 }],
    );
    // Step 2: the path match stands alone.
    expect(canaryShare(at(2), req({ host, path: '/storage/v2/a', headers: { 'x-env': 'canary' } }))).toBe(1);
    expect(canaryShare(at(2), req({ host, path: '/storage/a', headers: { 'x-env': 'canary' } }))).toBe(0);
    expect(canaryShare(at(2), req({ host, path: '/storage/v2/a' }))).toBe(0);
    // Step 3: weights on every stable rule, none on the other Service.
    const step3 = app.rollouts[0]!.plan.steps[2]!;
    expect(canaryShare(at(3), req({ host, path: '/storage/a' }))).toBeCloseTo(step3.traffic.weight / 100, 9);
    expect(canaryShare(at(3), req({ host, path: '/list' }))).toBe(0);
  });

  test('argo-plugin-routes: weights take the stable share only; header routes go to canary; mirrors are noted', () => {
    const app = load('argo-plugin-routes');
    const host = 'echo.example.com';
    const plain = req({ host, path: '/x' });
    const stableShare = simulateRequest(objectsAt(app, { kind: 'stable' }), [generator], plain)!.services.find(
      (s) => s.service === 'echoserver',
    )!.share;
    for (const step of app.rollouts[0]!.plan.steps) {
      const objects = objectsAt(app, { kind: 'step', step: step.index });
      expect(canaryShare(objects, plain)).toBeCloseTo(
        (stableShare * step.traffic.weight) / step.traffic.weightTotal,
        9,
      );
      const headerRouted = step.traffic.headerRoutes.length > 0;
      expect(canaryShare(objects, req({ host, path: '/x', headers: { 'x-beta': 'yes' } }))).toBe(
        headerRouted ? 1 : canaryShare(objects, plain),
      );
      expect(canaryShare(objects, req({ host, path: '/x', headers: { 'User-Agent': 'Mozilla/5.0 (X11)' } }))).toBe(
        headerRouted ? 1 : canaryShare(objects, plain),
      );
      const mirror = step.traffic.mirrorRoutes[0];
      const rule = simulateRequest(objects, [generator], req({ host, path: '/api/v1', method: 'GET' }))!.rule;
      expect(rule.includes(`mirror ${mirror?.percentage}% to echoserver-preview`)).toBe(mirror !== undefined);
      expect(simulateRequest(objects, [generator], req({ host, path: '/api/v1', method: 'POST' }))!.rule).not.toMatch(
        /mirror/,
      );
    }
  });
});

describe.each(['kruise-weight-steps', 'kruise-matches-crossed', 'argo-plugin-routes'])(
  'no traffic to pods that are not ready: %s',
  (name) => {
    const app = load(name);
    const steps = app.rollouts[0]!.plan.steps;
    const host = name === 'kruise-matches-crossed' ? 'shop.example.com' : 'echo.example.com';
    const requests = [
      req({ host, path: '/store/a', headers: { version: 'v2', user_id: '1234', canary: 'true', 'x-beta': 'yes' } }),
      req({ host, path: '/storage/v2/a', headers: { 'x-env': 'canary' }, query: { beta: '1' } }),
      req({ host, path: '/api', method: 'GET' }),
      req({ host, path: '/' }),
    ];
    const n = steps.length;
    const transitions = lifecycleTransitions(n, 2);
    const forward = transitions.slice(0, -2);
    const removals = transitions.slice(-2);

    function dead(from: RenderPhase, to: RenderPhase, order: RegExp): string[] {
      return syncMoments(objectsAt(app, from), objectsAt(app, to))
        .filter((m) => order.test(m.label))
        .flatMap((m) =>
          requests.flatMap((r) =>
            deadPods(simulateRequest(m.objects, [generator], r, m.ready)).map(
              (p) => `${m.label}: ${r.path} -> ${p.service}`,
            ),
          ),
        );
    }

    test('start, every step and promotion, in both prune orders', () => {
      for (const [from, to] of forward) expect({ from, to, dead: dead(from, to, /./) }).toEqual({ from, to, dead: [] });
    });

    // The HTTPRoute is changed in place, not pruned; the canary workloads' PruneLast keeps them
    // until the route is applied, whichever order the rest of the sync takes.
    test('clean-up and abort in both prune orders', () => {
      for (const [from, to] of removals)
        expect({ from, to, dead: dead(from, to, /./) }).toEqual({ from, to, dead: [] });
    });

    test('negative control: without PruneLast a prune-first clean-up would send traffic to removed canary pods', () => {
      if (steps[n - 1]!.traffic.weight === 0) return;
      const strip = (objects: readonly KubeObject[]) =>
        objects.map((o) => ({
          ...o,
          metadata: {
            ...o.metadata,
            annotations: Object.fromEntries(
              Object.entries(o.metadata.annotations ?? {}).filter(([k]) => k !== 'argocd.argoproj.io/sync-options'),
            ),
          },
        }));
      const [from, to] = removals[0]!;
      const moments = syncMoments(strip(objectsAt(app, from)), strip(objectsAt(app, to))).filter((m) =>
        /^prune first/.test(m.label),
      );
      expect(
        moments.some((m) =>
          requests.some((r) => deadPods(simulateRequest(m.objects, [generator], r, m.ready)).length > 0),
        ),
      ).toBe(true);
    });
  },
);
