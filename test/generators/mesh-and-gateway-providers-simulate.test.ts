import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import type { SimRequest } from '../../src/contract/generator';
import { RenderPhase } from '../../src/render/phase';
import { fluxMoments } from '../../src/simulate/transition';
import { simulateRequest } from '../../src/simulate/simulate';
import type { LoadedApp } from '../../src/spec/loaded-app';
import { canaryShare, deadPods, generatorsOf, loadAppFrom, loadGoldenApp, objectsAt } from '../helpers/golden-app';
import { expectNoDeadBackends, lifecycleTransitions } from '../helpers/transitions';

/** Where each case's traffic enters: an external host, or the Service a mesh routes. */
const PROBES: Record<string, readonly Omit<SimRequest, 'headers' | 'cookies' | 'query'>[]> = {
  'smi/argo-root-service': [{ host: 'web-root', path: '/' }],
  'smi/argo-v1alpha3-split': [{ host: 'web', path: '/' }],
  'smi/argo-with-nginx': [
    { host: 'web.example.com', path: '/' },
    { host: 'web-root', path: '/' },
  ],
  'traefik/argo-weighted': [{ host: 'web.example.com', path: '/' }],
  'traefik/argo-mirror': [{ host: 'web.example.com', path: '/' }],
  'apisix/argo-header-route': [{ host: 'web.example.com', path: '/' }],
  'ambassador/argo-two-mappings': [
    { host: 'web.example.com', path: '/api/items' },
    { host: 'web.example.com', path: '/' },
  ],
  'app-mesh/argo-virtual-node-group': [{ host: 'web', path: '/' }],
  'smi/upstream-getting-started': [{ host: 'demo-stable', path: '/' }],
  'ambassador/upstream-echo': [{ host: 'greeter.example.com', path: '/greet/hello' }],
  'apisix/upstream-set-header': [{ host: 'shop.apisix.example', path: '/cart' }],
  'app-mesh/upstream-canary': [{ host: 'colors', path: '/' }],
  'traefik/upstream-weighted': [{ path: '/' }],
};

const CASES = Object.keys(PROBES);

const load = (name: string): LoadedApp => {
  const [provider, c] = name.split('/');
  const app = loadGoldenApp(provider, c);
  expect(app.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return app;
};

/** Plain requests, and one per header a step's header route matches. */
function requests(name: string, app: LoadedApp): SimRequest[] {
  const plain = PROBES[name].map((p) => ({ ...p, headers: {}, cookies: {}, query: {} }));
  const headers = app.rollouts[0].plan.steps.flatMap((s) =>
    s.traffic.headerRoutes.flatMap((h) => h.matches.flatMap((m) => m.headers)),
  );
  return [
    ...plain,
    ...plain.flatMap((p) =>
      headers.map((h) => ({ ...p, headers: { [h.name]: h.type === 'Prefix' ? `${h.value}x` : h.value } })),
    ),
  ];
}

function lifecycle(app: LoadedApp): RenderPhase[] {
  const n = app.rollouts[0].plan.steps.length;
  const steps = app.rollouts[0].plan.steps.map((s) => ({ kind: 'step', step: s.index }) as const);
  return [
    { kind: 'stable' },
    ...steps,
    { kind: 'promoting', step: n },
    { kind: 'draining', step: n },
    { kind: 'stable' },
  ];
}

function fluxDead(app: LoadedApp, reqs: readonly SimRequest[], phases: readonly RenderPhase[]): string[] {
  const dead: string[] = [];
  for (let i = 1; i < phases.length; i++)
    for (const moment of fluxMoments(objectsAt(app, phases[i - 1]), objectsAt(app, phases[i])))
      for (const req of reqs)
        if (deadPods(simulateRequest(moment.objects, generatorsOf(app), req, moment.ready)).length > 0)
          dead.push(`${phases[i - 1].kind} -> ${phases[i].kind}: ${moment.label} (${req.host}${req.path})`);
  return dead;
}

/**
 * The same source without the user's canary Service, so rollgen generates `<stable>-canary` and
 * prunes it at clean-up; the routing objects name that Service instead.
 */
function withGeneratedCanaryService(name: string): LoadedApp {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-gen-canary-'));
  const source = path.join(dir, 'source');
  fs.cpSync(path.join(__dirname, '..', 'golden', name, 'source'), source, { recursive: true });
  const { canaryService: canary, stableService: stable } = load(name).rollouts[0].spec.traffic;
  for (const file of fs.readdirSync(source)) {
    const full = path.join(source, file);
    const docs = parseAllDocuments(fs.readFileSync(full, 'utf8')).filter(
      (d) => !(d.get('kind') === 'Service' && d.getIn(['metadata', 'name']) === canary),
    );
    const text = docs.map((d) => d.toString()).join('---\n');
    const withoutLine = text.replace(new RegExp(`^ +canaryService: ${canary}\\n`, 'm'), '');
    fs.writeFileSync(full, withoutLine.replace(new RegExp(`\\b${canary}\\b`, 'g'), `${stable}-canary`));
  }
  const app = loadAppFrom('source', source, dir);
  fs.rmSync(dir, { recursive: true, force: true });
  expect(app.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(app.rollouts[0].spec.traffic.generateCanaryService).toBe(true);
  return app;
}

describe.each(CASES)('simulator: %s', (name) => {
  const app = load(name);
  const plan = app.rollouts[0].plan;

  test('every step sends its weight to the canary, and header routes all of their requests', () => {
    for (const step of plan.steps) {
      const objects = objectsAt(app, { kind: 'step', step: step.index });
      for (const p of PROBES[name]) {
        const req = { ...p, headers: {}, cookies: {}, query: {} };
        expect({ step: step.index, share: canaryShare(objects, generatorsOf(app), req) }).toEqual({
          step: step.index,
          share: expect.closeTo(step.traffic.weight / 100, 6),
        });
        for (const h of step.traffic.headerRoutes.flatMap((r) => r.matches.flatMap((m) => m.headers))) {
          const value = h.type === 'Prefix' ? `${h.value}x` : h.value;
          expect(canaryShare(objects, generatorsOf(app), { ...req, headers: { [h.name]: value } })).toBe(1);
        }
      }
    }
    for (const p of PROBES[name])
      expect(
        canaryShare(objectsAt(app, { kind: 'stable' }), generatorsOf(app), {
          ...p,
          headers: {},
          cookies: {},
          query: {},
        }),
      ).toBe(0);
  });

  test('no request reaches a backend without ready pods across adjacent states, both Argo CD prune orders', () => {
    expectNoDeadBackends(app, lifecycleTransitions(plan.steps.length), requests(name, app));
  });

  test('nor under the Flux split, with the canary Service written by the user or generated', () => {
    expect(fluxDead(app, requests(name, app), lifecycle(app))).toEqual([]);
    const generated = withGeneratedCanaryService(name);
    expect(fluxDead(generated, requests(name, generated), lifecycle(generated))).toEqual([]);
  });

  test('negative control: one-commit clean-up under Flux does send requests to the pruned canary', () => {
    const generated = withGeneratedCanaryService(name);
    const n = generated.rollouts[0].plan.steps.length;
    const last = generated.rollouts[0].plan.steps[n - 1];
    if (last.traffic.weight === 0) return; // nothing routed to the canary at the end: nothing to lose
    expect(
      fluxDead(generated, requests(name, generated), [{ kind: 'promoting', step: n }, { kind: 'stable' }]).length,
    ).toBeGreaterThan(0);
  });
});
