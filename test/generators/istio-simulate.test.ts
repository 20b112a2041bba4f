import type { SimRequest } from '../../src/contract/generator';
import { KubeObject } from '../../src/model/kube';
import { PlannedStep } from '../../src/model/plan';
import { simulateRequest, TrafficSplit } from '../../src/simulate/simulate';
import type { LoadedApp, LoadedRollout } from '../../src/spec/loaded-app';
import { RouteMatch, ValueMatch } from '../../src/model/rollout';
import { generatorsOf, goldenCases, loadGoldenApp, objectsAt } from '../helpers/golden-app';
import { expectNoDeadBackends, lifecycleTransitions } from '../helpers/transitions';

/** The simulator routes http requests; a TLS-only VirtualService (argo-tls-only-routes) has none to route. */
const CASES = goldenCases('istio').filter((c) => c !== 'argo-tls-only-routes');

/** Where each rollout's http traffic enters: host and path that its weighted rule serves. */
const PROBES: Record<string, Record<string, { host: string; path: string }>> = {
  'argo-host-mode': { reviews: { host: 'reviews.example.com', path: '/' } },
  'argo-subset-mode': { ratings: { host: 'ratings', path: '/' } },
  'argo-dynamic-stable-scale': { ratings: { host: 'ratings', path: '/' } },
  'argo-additional-subsets': { ratings: { host: 'ratings', path: '/' } },
  'argo-tls-tcp-multi-vs': { db: { host: 'db', path: '/' } },
  'argo-header-mirror': { reviews: { host: 'reviews.example.com', path: '/' } },
  'argo-shared-virtualservice': {
    frontend: { host: 'shop.example.com', path: '/' },
    api: { host: 'shop.example.com', path: '/api/items' },
  },
  'kruise-v1beta1-matches': { productpage: { host: 'productpage.example.com', path: '/' } },
  'kruise-subset-user-fields': { details: { host: 'details', path: '/' } },
  'argo-ping-pong': { catalog: { host: 'catalog', path: '/' } },
  'argo-ping-pong-second': { catalog: { host: 'catalog', path: '/' } },
};

function load(name: string): LoadedApp {
  const app = loadGoldenApp('istio', name);
  expect(app.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return app;
}

function simulate(
  app: LoadedApp,
  objects: readonly KubeObject[],
  req: SimRequest,
  ready?: ReadonlySet<string>,
): TrafficSplit {
  const split = simulateRequest(objects, generatorsOf(app), req, ready);
  if (!split) throw new Error(`no route matched ${JSON.stringify(req)}`);
  return split;
}

/** Canary share of the requests that reach this rollout's pods (other destinations of a rule aside). */
function canaryShare(split: TrafficSplit, workload: string): number {
  const mine = split.pods.filter((p) => p.deployment === workload || p.deployment === `${workload}-canary`);
  const total = mine.reduce((n, p) => n + p.share, 0);
  return total === 0
    ? 0
    : mine.filter((p) => p.deployment === `${workload}-canary`).reduce((n, p) => n + p.share, 0) / total;
}

/** A value the condition accepts: regexes written like `.*demo` or `on|yes` are sampled, not solved. */
function sample(v: ValueMatch): string {
  if (v.type === 'Exact') return v.value;
  if (v.type === 'Prefix') return `${v.value}x`;
  return v.value.split('|')[0].replace(/\.\*/g, 'a');
}

function requestFor(base: { host: string; path: string }, m: RouteMatch): SimRequest {
  const headers = Object.fromEntries(m.headers.map((h) => [h.name.toLowerCase(), sample(h)]));
  const query = Object.fromEntries(m.queryParams.map((q) => [q.name, sample(q)]));
  const p = m.path ? (m.path.type === 'Exact' ? m.path.value : `${m.path.value}/x`) : base.path;
  return {
    host: base.host,
    path: p,
    method: m.method ? sample({ name: '', ...m.method }) : 'GET',
    headers,
    cookies: {},
    query,
  };
}

const plain = (base: { host: string; path: string }): SimRequest => ({
  ...base,
  headers: { 'x-other': '1' },
  cookies: {},
  query: {},
});

describe.each(CASES)('istio simulator: %s', (name) => {
  const app = load(name);
  const rollouts = app.rollouts;
  const steps = Math.max(...rollouts.map((r) => r.plan.steps.length));
  const probe = (r: LoadedRollout) => PROBES[name][r.spec.name];

  test.each(Array.from({ length: steps }, (_, i) => i + 1))(
    'step %i: weighted, header, match and mirror traffic land as planned',
    (n) => {
      const objects = objectsAt(app, { kind: 'step', step: n });
      for (const r of rollouts) {
        const step: PlannedStep | undefined = r.plan.steps[n - 1];
        if (!step) continue;
        const workload = r.spec.workload.name;
        // With Argo additionalSubsetNames the canary gets the step's weight of the whole rule, not of the app's share.
        const split = simulate(app, objects, plain(probe(r)));
        const share = r.spec.traffic.providers.some(
          (p) =>
            p.options.destinationRule !== undefined &&
            (p.options.destinationRule as { additionalSubsetNames?: unknown }).additionalSubsetNames,
        )
          ? split.pods.filter((p) => p.deployment === `${workload}-canary`).reduce((s, p) => s + p.share, 0)
          : canaryShare(split, workload);
        expect({ rollout: r.spec.name, share }).toEqual({
          rollout: r.spec.name,
          share: expect.closeTo(step.traffic.weight / 100, 2),
        });
        for (const m of [...step.traffic.matches, ...step.traffic.headerRoutes.flatMap((h) => h.matches)]) {
          expect(canaryShare(simulate(app, objects, requestFor(probe(r), m)), workload)).toBe(1);
        }
        for (const mirror of step.traffic.mirrorRoutes) {
          for (const m of mirror.matches) {
            const split = simulate(app, objects, requestFor(probe(r), m));
            expect(split.mirror?.map((p) => p.deployment)).toEqual([`${workload}-canary`]);
            expect(split.mirror?.reduce((s, p) => s + p.share, 0)).toBeCloseTo(mirror.percentage / 100, 6);
            expect(canaryShare(split, workload)).toBeCloseTo(step.traffic.weight / 100, 2);
          }
        }
      }
    },
  );

  test('stable only: nothing reaches or mirrors to a canary', () => {
    for (const r of rollouts) {
      const split = simulate(app, objectsAt(app, { kind: 'stable' }), plain(probe(r)));
      expect(canaryShare(split, r.spec.workload.name)).toBe(0);
      expect(split.mirror ?? []).toEqual([]);
    }
  });

  test('no request reaches a backend or subset without ready pods, across every pair of adjacent states', () => {
    const requests = rollouts.flatMap((r) => [
      plain(probe(r)),
      ...r.plan.steps.flatMap((s) =>
        [
          ...s.traffic.matches,
          ...s.traffic.headerRoutes.flatMap((h) => h.matches),
          ...s.traffic.mirrorRoutes.flatMap((h) => h.matches),
        ].map((m) => requestFor(probe(r), m)),
      ),
    ]);
    // Both prune orders, leaving the canary included: canary workloads carry PruneLast.
    expectNoDeadBackends(
      app,
      lifecycleTransitions(steps, 2),
      requests,
      generatorsOf(app),
      (split, req, { before, after }) => {
        if (!split) throw new Error(`no route matched ${JSON.stringify(req)}`);
        // Backends of other apps (a rule's extra destination) are theirs to keep ready.
        const ours = new Set([...before, ...after].filter((o) => o.kind === 'Service').map((o) => o.metadata.name));
        rollouts.forEach((r) =>
          [r.spec.traffic.stableService, r.spec.traffic.canaryService].forEach((s) => s && ours.add(s)),
        );
        return [...split.pods, ...(split.mirror ?? [])].filter(
          (p) => p.share > 0 && !p.deployment && ours.has(p.service),
        );
      },
    );
  });
});
