import * as fs from 'fs';
import * as path from 'path';
import type { SimRequest, TrafficGenerator } from '../generators/types';
import { KubeObject } from '../src/model/kube';
import { ResourceSet } from '../src/model/resource-set';
import { defaultGatePolicy } from '../src/plan/gates';
import { PlannedStep } from '../src/plan/types';
import { RenderPhase } from '../src/render/phase';
import { renderApp } from '../src/render/render-app';
import { defaultTrackLabel } from '../src/render/track';
import { AppLocation, loadSource, readSourceFiles } from '../src/run/apps';
import { simulateRequest } from '../src/simulate/simulate';
import { syncMoments } from '../src/simulate/transition';
import { LoadedApp } from '../src/spec/load-app';
import type { RouteMatch, ValueMatch } from '../src/spec/types';
import { statesAtStep } from '../src/state/app-state';

/** The simulator proof of test/simulate.test.ts, over the higress and mse golden cases, with query parameters. */
const GOLDEN = path.join(__dirname, 'golden');
const CASES = ['higress', 'mse'].flatMap((p) => fs.readdirSync(path.join(GOLDEN, p)).filter((c) => !c.startsWith('error-')).map((c) => `${p}/${c}`));
const HOST = 'echo.example.com';
const track = defaultTrackLabel;

function load(name: string): LoadedApp {
  const loc: AppLocation = { name, source: path.join(GOLDEN, name, 'source'), gates: defaultGatePolicy, track, removal: 'one-commit' };
  return loadSource(loc, readSourceFiles(loc, GOLDEN));
}

function objectsAt(app: LoadedApp, phase: RenderPhase): KubeObject[] {
  const states = statesAtStep(app, { resources: new ResourceSet([]) }, 0, track).map((s) => ({ ...s, phase, canaryPod: { ...s.canaryPod, revision: 'new' } }));
  return renderApp(app, states, track);
}

const generatorsOf = (app: LoadedApp): TrafficGenerator[] => app.rollouts.flatMap((r) => r.providers.map((p) => p.generator));

interface Parts {
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  query?: Record<string, string>;
}
const request = (p: Parts = {}): SimRequest => ({ host: HOST, path: '/', headers: p.headers ?? {}, cookies: p.cookies ?? {}, query: p.query ?? {} });

/** A value each golden regex accepts (the regexes are whole-value matches, as Envoy evaluates them). */
const REGEX_SAMPLES: Record<string, string> = { '.*pc.*': 'a-pc-b', '[0-9]*7': '1237' };
function sample(m: ValueMatch): string {
  if (m.type === 'Exact') return m.value;
  const s = REGEX_SAMPLES[m.value];
  if (s === undefined) throw new Error(`add a sample for regex ${m.value}`);
  return s;
}

/** One request that satisfies every condition of the match. */
function satisfying(m: RouteMatch): SimRequest {
  const pairs = (list: readonly ValueMatch[]) => Object.fromEntries(list.map((v) => [v.name, sample(v)]));
  return request({ headers: pairs(m.headers), query: pairs(m.queryParams), cookies: Object.fromEntries(m.cookies.map((c) => [c.name, 'always'])) });
}

function canaryShare(app: LoadedApp, objects: readonly KubeObject[], req: SimRequest): number {
  const split = simulateRequest(objects, generatorsOf(app), req);
  if (!split) throw new Error('no route matched');
  return split.pods.filter((p) => p.deployment?.endsWith('-canary')).reduce((n, p) => n + p.share, 0);
}

function requestsFor(steps: readonly PlannedStep[]): SimRequest[] {
  return [request(), ...steps.flatMap((s) => s.traffic.matches.map(satisfying))];
}

describe.each(CASES)('simulator: %s', (name) => {
  const app = load(name);
  const rollout = app.rollouts[0];

  test.each(rollout.plan.steps.map((s) => [s.index, s] as const))('step %i sends exactly the planned share to the canary', (_i, step) => {
    const objects = objectsAt(app, { kind: 'step', step: step.index });
    const weighted = step.traffic.weight / step.traffic.weightTotal;
    const expected = step.serviceSelection === 'shared' && step.traffic.weight === 0 ? step.canaryReplicas / (step.canaryReplicas + step.stableReplicas) : weighted;
    expect(canaryShare(app, objects, request({ headers: { 'x-other': '1' } }))).toBeCloseTo(expected, 6);
    for (const m of step.traffic.matches) expect(canaryShare(app, objects, satisfying(m))).toBe(1);
  });

  test('a request meeting only part of an ANDed match gets the weighted share, not the canary', () => {
    const anded = rollout.plan.steps.filter((s) => s.traffic.matches.some((m) => m.headers.length > 0 && m.queryParams.length > 0));
    for (const step of anded) {
      const objects = objectsAt(app, { kind: 'step', step: step.index });
      const m = step.traffic.matches[0];
      const { headers } = satisfying(m);
      expect(canaryShare(app, objects, request({ headers }))).toBeCloseTo(step.traffic.weight / step.traffic.weightTotal, 6);
    }
    expect(anded.length > 0).toBe(name === 'mse/kruise-query');
  });

  test('stable only and after clean-up: nothing reaches a canary', () => {
    for (const req of requestsFor(rollout.plan.steps)) expect(canaryShare(app, objectsAt(app, { kind: 'stable' }), req)).toBe(0);
  });

  test('no request reaches a backend without ready pods, across every pair of adjacent states', () => {
    const n = rollout.plan.steps.length;
    const phases: RenderPhase[] = [{ kind: 'stable' }, ...rollout.plan.steps.map((s) => ({ kind: 'step', step: s.index }) as const), { kind: 'promoting', step: n }, { kind: 'stable' }];
    const pairs = phases.slice(1).map((p, i) => [phases[i], p] as const);
    pairs.push([{ kind: 'step', step: Math.min(3, n) }, { kind: 'stable' }]); // abort from a step with two canary Ingresses
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
