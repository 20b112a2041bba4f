import * as fs from 'fs';
import * as path from 'path';
import type { SimRequest, TrafficGenerator } from '../generators/types';
import { KubeObject } from '../src/model/kube';
import { ResourceSet } from '../src/model/resource-set';
import { renderApp } from '../src/render/render-app';
import { defaultTrackLabel } from '../src/render/track';
import { AppLocation, loadSource, readSourceFiles } from '../src/run/apps';
import { simulateRequest } from '../src/simulate/simulate';
import { syncMoments } from '../src/simulate/transition';
import { LoadedApp } from '../src/spec/load-app';
import { statesAtStep } from '../src/state/app-state';
import { RenderPhase } from '../src/render/phase';
import { defaultGatePolicy } from '../src/plan/gates';
import { PlannedStep } from '../src/plan/types';

const GOLDEN = path.join(__dirname, 'golden', 'ingress-nginx');
const CASES = fs.readdirSync(GOLDEN).filter((c) => !c.startsWith('error-'));
const HOST = 'echo.example.com';
const track = defaultTrackLabel;

function load(name: string): LoadedApp {
  const loc: AppLocation = { name, source: path.join(GOLDEN, name, 'source'), gates: defaultGatePolicy, track, removal: 'one-commit' };
  return loadSource(loc, readSourceFiles(loc, GOLDEN));
}

/** Objects of one phase; stable and canary templates differ so the canary is a real new version. */
function objectsAt(app: LoadedApp, phase: RenderPhase): KubeObject[] {
  const states = statesAtStep(app, { resources: new ResourceSet([]) }, 0, track).map((s) => ({ ...s, phase, canaryPod: { ...s.canaryPod, revision: 'new' } }));
  return renderApp(app, states, track);
}

const generatorsOf = (app: LoadedApp): TrafficGenerator[] => app.rollouts.flatMap((r) => r.providers.map((p) => p.generator));
const request = (headers: Record<string, string> = {}, cookies: Record<string, string> = {}): SimRequest => ({ host: HOST, path: '/', headers, cookies, query: {} });

function canaryShare(app: LoadedApp, objects: readonly KubeObject[], req: SimRequest): number {
  const split = simulateRequest(objects, generatorsOf(app), req);
  if (!split) throw new Error('no route matched');
  return split.pods.filter((p) => p.deployment?.endsWith('-canary')).reduce((n, p) => n + p.share, 0);
}

/** Requests that exercise every match of a step: one per header/cookie condition, plus a plain one. */
function requestsFor(steps: readonly PlannedStep[]): SimRequest[] {
  const out = [request()];
  for (const s of steps) {
    for (const m of s.traffic.matches) {
      for (const h of m.headers) out.push(request({ [h.name.toLowerCase()]: h.type === 'Exact' ? h.value : 'a-pc-b' }));
      for (const c of m.cookies) out.push(request({}, { [c.name]: 'always' }));
    }
  }
  return out;
}

describe.each(CASES)('simulator: %s', (name) => {
  const app = load(name);
  const rollout = app.rollouts[0];

  test.each(rollout.plan.steps.map((s) => [s.index, s] as const))('step %i sends exactly the planned share to the canary', (_i, step) => {
    const objects = objectsAt(app, { kind: 'step', step: step.index });
    const weighted = step.traffic.weight / step.traffic.weightTotal;
    const expected = step.serviceSelection === 'shared' && step.traffic.weight === 0 ? step.canaryReplicas / (step.canaryReplicas + step.stableReplicas) : weighted;
    expect(canaryShare(app, objects, request({ 'x-other': '1' }))).toBeCloseTo(expected, 6);
    for (const m of step.traffic.matches) {
      for (const h of m.headers) expect(canaryShare(app, objects, request({ [h.name.toLowerCase()]: h.type === 'Exact' ? h.value : 'a-pc-b' }))).toBe(1);
      for (const c of m.cookies) expect(canaryShare(app, objects, request({}, { [c.name]: 'always' }))).toBe(1);
    }
  });

  test('stable only and after clean-up: nothing reaches a canary', () => {
    expect(canaryShare(app, objectsAt(app, { kind: 'stable' }), request())).toBe(0);
  });

  test('no request reaches a backend without ready pods, across every pair of adjacent states', () => {
    const n = rollout.plan.steps.length;
    const phases: RenderPhase[] = [{ kind: 'stable' }, ...rollout.plan.steps.map((s) => ({ kind: 'step', step: s.index }) as const), { kind: 'promoting', step: n }, { kind: 'stable' }];
    const pairs = phases.slice(1).map((p, i) => [phases[i], p] as const);
    pairs.push([{ kind: 'step', step: Math.min(2, n) }, { kind: 'stable' }]); // abort
    const requests = requestsFor(rollout.plan.steps);
    let checked = 0;
    for (const [from, to] of pairs) {
      for (const moment of syncMoments(objectsAt(app, from), objectsAt(app, to))) {
        for (const req of requests) {
          const split = simulateRequest(moment.objects, generatorsOf(app), req, moment.ready);
          const dead = split?.pods.filter((p) => p.share > 0 && !p.deployment) ?? [];
          expect({ moment: moment.label, from, to, dead }).toEqual({ moment: moment.label, from, to, dead: [] });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(pairs.length);
  });
});

test('the transition model catches a route that points at pods not yet ready', () => {
  const app = load('kruise-v1alpha1-canary');
  const before = objectsAt(app, { kind: 'stable' });
  // A broken renderer that puts the canary Ingress in the same wave as the canary Deployment.
  const after = objectsAt(app, { kind: 'step', step: 1 }).map((o) => (o.kind === 'Ingress' && o.metadata.name.endsWith('-canary') ? { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, 'argocd.argoproj.io/sync-wave': '0' } } } : o));
  const unsafe = syncMoments(before, after).some((m) => simulateRequest(m.objects, generatorsOf(app), request(), m.ready)?.pods.some((p) => p.share > 0 && !p.deployment));
  expect(unsafe).toBe(true);
});
