import * as fs from 'fs';
import * as path from 'path';
import type { SimRequest, TrafficGenerator } from '../../generators/types';
import { KubeObject } from '../../src/model/kube';
import { ResourceSet } from '../../src/model/resource-set';
import { defaultGatePolicy } from '../../src/plan/gates';
import { PlannedStep } from '../../src/plan/types';
import { RenderPhase } from '../../src/render/phase';
import { renderApp } from '../../src/render/render-app';
import { defaultTrackLabel } from '../../src/render/track';
import { AppLocation, loadSource, readSourceFiles } from '../../src/run/apps';
import { simulateRequest, TrafficSplit } from '../../src/simulate/simulate';
import { syncMoments } from '../../src/simulate/transition';
import { LoadedApp, LoadedRollout } from '../../src/spec/load-app';
import { RouteMatch, ValueMatch } from '../../src/spec/types';
import { statesAtStep } from '../../src/state/app-state';

const GOLDEN = path.join(__dirname, '..', 'golden', 'istio');
const CASES = fs.readdirSync(GOLDEN).filter((c) => !c.startsWith('error-'));
const track = defaultTrackLabel;

/** Where each rollout's http traffic enters: host and path that its weighted rule serves. */
const PROBES: Record<string, Record<string, { host: string; path: string }>> = {
  'argo-host-mode': { reviews: { host: 'reviews.example.com', path: '/' } },
  'argo-subset-mode': { ratings: { host: 'ratings', path: '/' } },
  'argo-tls-tcp-multi-vs': { db: { host: 'db', path: '/' } },
  'argo-header-mirror': { reviews: { host: 'reviews.example.com', path: '/' } },
  'argo-shared-virtualservice': { frontend: { host: 'shop.example.com', path: '/' }, api: { host: 'shop.example.com', path: '/api/items' } },
  'kruise-v1beta1-matches': { productpage: { host: 'productpage.example.com', path: '/' } },
  'kruise-subset-user-fields': { details: { host: 'details', path: '/' } },
};

function load(name: string): LoadedApp {
  const loc: AppLocation = { name, source: path.join(GOLDEN, name, 'source'), gates: defaultGatePolicy, track };
  const app = loadSource(loc, readSourceFiles(loc, GOLDEN));
  expect(app.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return app;
}

function objectsAt(app: LoadedApp, phase: RenderPhase): KubeObject[] {
  const states = statesAtStep(app, { resources: new ResourceSet([]) }, 0, track).map((s) => ({ ...s, phase, canaryPod: { ...s.canaryPod, revision: 'new' } }));
  return renderApp(app, states, track);
}

const generatorsOf = (app: LoadedApp): TrafficGenerator[] => [...new Set(app.rollouts.flatMap((r) => r.providers.map((p) => p.generator)))];

function simulate(app: LoadedApp, objects: readonly KubeObject[], req: SimRequest, ready?: ReadonlySet<string>): TrafficSplit {
  const split = simulateRequest(objects, generatorsOf(app), req, ready);
  if (!split) throw new Error(`no route matched ${JSON.stringify(req)}`);
  return split;
}

/** Canary share of the requests that reach this rollout's pods (other destinations of a rule aside). */
function canaryShare(split: TrafficSplit, workload: string): number {
  const mine = split.pods.filter((p) => p.deployment === workload || p.deployment === `${workload}-canary`);
  const total = mine.reduce((n, p) => n + p.share, 0);
  return total === 0 ? 0 : mine.filter((p) => p.deployment === `${workload}-canary`).reduce((n, p) => n + p.share, 0) / total;
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
  return { host: base.host, path: p, method: m.method ?? 'GET', headers, cookies: {}, query };
}

const plain = (base: { host: string; path: string }): SimRequest => ({ ...base, headers: { 'x-other': '1' }, cookies: {}, query: {} });

describe.each(CASES)('istio simulator: %s', (name) => {
  const app = load(name);
  const rollouts = app.rollouts;
  const steps = Math.max(...rollouts.map((r) => r.plan.steps.length));
  const probe = (r: LoadedRollout) => PROBES[name][r.spec.name];

  test.each(Array.from({ length: steps }, (_, i) => i + 1))('step %i: weighted, header, match and mirror traffic land as planned', (n) => {
    const objects = objectsAt(app, { kind: 'step', step: n });
    for (const r of rollouts) {
      const step: PlannedStep | undefined = r.plan.steps[n - 1];
      if (!step) continue;
      const workload = r.spec.workload.name;
      expect({ rollout: r.spec.name, share: canaryShare(simulate(app, objects, plain(probe(r))), workload) }).toEqual({ rollout: r.spec.name, share: expect.closeTo(step.traffic.weight / 100, 2) });
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
  });

  test('stable only: nothing reaches or mirrors to a canary', () => {
    for (const r of rollouts) {
      const split = simulate(app, objectsAt(app, { kind: 'stable' }), plain(probe(r)));
      expect(canaryShare(split, r.spec.workload.name)).toBe(0);
      expect(split.mirror ?? []).toEqual([]);
    }
  });

  test('no request reaches a backend or subset without ready pods, across every pair of adjacent states', () => {
    const phases: RenderPhase[] = [{ kind: 'stable' }, ...Array.from({ length: steps }, (_, i) => ({ kind: 'step', step: i + 1 }) as const), { kind: 'promoting', step: steps }, { kind: 'stable' }];
    const pairs = phases.slice(1).map((p, i) => [phases[i], p] as const);
    pairs.push([{ kind: 'step', step: Math.min(2, steps) }, { kind: 'stable' }]); // abort
    const requests = rollouts.flatMap((r) => [plain(probe(r)), ...r.plan.steps.flatMap((s) => [...s.traffic.matches, ...s.traffic.headerRoutes.flatMap((h) => h.matches), ...s.traffic.mirrorRoutes.flatMap((h) => h.matches)].map((m) => requestFor(probe(r), m)))]);
    let checked = 0;
    for (const [from, to] of pairs) {
      // Backends of other apps (a rule's extra destination) are theirs to keep ready.
      const ours = new Set([...objectsAt(app, from), ...objectsAt(app, to)].filter((o) => o.kind === 'Service').map((o) => o.metadata.name));
      rollouts.forEach((r) => [r.spec.traffic.stableService, r.spec.traffic.canaryService].forEach((s) => s && ours.add(s)));
      // Both prune orders, leaving the canary included: canary workloads carry PruneLast.
      for (const moment of syncMoments(objectsAt(app, from), objectsAt(app, to))) {
        for (const req of requests) {
          const split = simulate(app, moment.objects, req, moment.ready);
          const dead = [...split.pods, ...(split.mirror ?? [])].filter((p) => p.share > 0 && !p.deployment && ours.has(p.service));
          expect({ moment: moment.label, from, to, dead }).toEqual({ moment: moment.label, from, to, dead: [] });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(pairs.length);
  });
});
