import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SimRequest, TrafficGenerator } from '../generators/types';
import { KubeObject } from '../src/model/kube';
import { ResourceSet } from '../src/model/resource-set';
import { defaultGatePolicy } from '../src/plan/gates';
import { RenderPhase } from '../src/render/phase';
import { renderApp } from '../src/render/render-app';
import { defaultTrackLabel } from '../src/render/track';
import { AppLocation, loadSource, readSourceFiles } from '../src/run/apps';
import { simulateRequest } from '../src/simulate/simulate';
import { fluxMoments } from '../src/simulate/transition';
import { LoadedApp } from '../src/spec/load-app';
import { statesAtStep } from '../src/state/app-state';
import { runCli } from './helpers/cli';
import { hasKubectl, kustomizeBuild, validateAgainstSchemas } from './helpers/schema';

/** Flux applies workloads, then routes (the README's split), pruning as it goes; two-commit removal keeps that safe. */
const GOLDEN = path.join(__dirname, 'golden', 'ingress-nginx');
const CASES = fs.readdirSync(GOLDEN).filter((c) => !c.startsWith('error-'));
const track = defaultTrackLabel;

function load(name: string): LoadedApp {
  const loc: AppLocation = { name, source: path.join(GOLDEN, name, 'source'), gates: defaultGatePolicy, track, removal: 'two-commits' };
  return loadSource(loc, readSourceFiles(loc, GOLDEN));
}

function objectsAt(app: LoadedApp, phase: RenderPhase): KubeObject[] {
  const states = statesAtStep(app, { resources: new ResourceSet([]) }, 0, track).map((s) => ({ ...s, phase, canaryPod: { ...s.canaryPod, revision: 'new' } }));
  return renderApp(app, states, track);
}

const generatorsOf = (app: LoadedApp): TrafficGenerator[] => app.rollouts.flatMap((r) => r.providers.map((p) => p.generator));

/** Requests that hit the canary in some step: a plain one and one per header/cookie match. */
function requests(app: LoadedApp): SimRequest[] {
  const base = { host: 'echo.example.com', path: '/', headers: {}, cookies: {}, query: {} };
  const out: SimRequest[] = [base];
  for (const s of app.rollouts[0].plan.steps) {
    for (const m of s.traffic.matches) {
      for (const h of m.headers) out.push({ ...base, headers: { [h.name.toLowerCase()]: h.type === 'Exact' ? h.value : 'a-pc-b' } });
      for (const c of m.cookies) out.push({ ...base, cookies: { [c.name]: 'always' } });
    }
  }
  return out;
}

/** Moments of a Flux sync along a path of states in which some request reaches a backend without ready pods. */
function deadMoments(app: LoadedApp, path: readonly RenderPhase[]): string[] {
  const dead: string[] = [];
  for (let i = 1; i < path.length; i++) {
    for (const moment of fluxMoments(objectsAt(app, path[i - 1]), objectsAt(app, path[i]))) {
      for (const req of requests(app)) {
        const split = simulateRequest(moment.objects, generatorsOf(app), req, moment.ready);
        if (split?.pods.some((p) => p.share > 0 && !p.deployment)) dead.push(`${path[i - 1].kind} -> ${path[i].kind}: ${moment.label}`);
      }
    }
  }
  return dead;
}

describe.each(CASES)('Flux order: %s', (name) => {
  const app = load(name);
  const n = app.rollouts[0].plan.steps.length;
  const k = Math.min(2, n);
  const steps: RenderPhase[] = app.rollouts[0].plan.steps.map((s) => ({ kind: 'step', step: s.index }));
  test('two-commit clean-up and abort never send a request to a backend without ready pods', () => {
    expect(deadMoments(app, [{ kind: 'stable' }, ...steps, { kind: 'promoting', step: n }, { kind: 'draining', step: n }, { kind: 'stable' }])).toEqual([]);
    expect(deadMoments(app, [{ kind: 'step', step: k }, { kind: 'draining', step: k }, { kind: 'stable' }])).toEqual([]);
  });
});

// Negative control: the same Flux model catches one-commit removal, so the tests above can fail.
// (A user-written canary Service falls back to stable pods in the same commit, which hides the gap.)
const EXPOSED = CASES.filter((name) => {
  const r = load(name).rollouts[0];
  return r.spec.traffic.generateCanaryService && r.plan.steps.some((s) => s.traffic.weight > 0 || s.traffic.matches.length > 0);
});

test.each(EXPOSED)('Flux order: one-commit clean-up of %s does send requests to a pruned canary', (name) => {
  const app = load(name);
  const n = app.rollouts[0].plan.steps.length;
  expect(deadMoments(app, [{ kind: 'promoting', step: n }, { kind: 'stable' }]).length).toBeGreaterThan(0);
});

describe('two-commit removal through the CLI', () => {
  const image = (dir: string, tag: string) => {
    const file = path.join(dir, 'src', 'deployment.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/agnhost:[0-9.]+/, `agnhost:${tag}`));
  };
  const files = (dir: string) => fs.readdirSync(path.join(dir, 'out')).sort();

  function setup(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-removal-'));
    fs.cpSync(path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver'), path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'rollgen.yaml'), 'apps:\n  - source: src\n    output: out\n    name: echoserver\n    removal: two-commits\n');
    return dir;
  }

  test('clean-up takes two commits: routes first, then the canary workloads', async () => {
    const dir = setup();
    for (let i = 0; i < 2; i++) expect((await runCli(['advance'], dir)).code).toBe(0);
    image(dir, '2.54');
    expect((await runCli(['advance'], dir)).code).toBe(0);
    expect(files(dir)).toContain('ingress-echoserver-canary.yaml');
    expect((await runCli(['promote', '--full'], dir)).code).toBe(0);
    const cleanup = await runCli(['advance'], dir);
    expect(cleanup.stdout).toContain('clean up: routes to stable (canary workloads next)');
    expect(files(dir)).not.toContain('ingress-echoserver-canary.yaml');
    expect(files(dir)).toContain('deployment-echoserver-canary.yaml');
    if (hasKubectl()) expect(validateAgainstSchemas(kustomizeBuild(path.join(dir, 'out')))).toContain('Deployment/echoserver-canary');
    const finish = await runCli(['advance'], dir);
    expect(finish.stdout).toContain('remove canary workloads');
    expect(files(dir)).not.toContain('deployment-echoserver-canary.yaml');
    expect((await runCli(['advance'], dir)).stdout).toContain('nothing to advance');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('abort takes two commits and the flag overrides rollgen.yaml', async () => {
    const dir = setup();
    for (let i = 0; i < 2; i++) await runCli(['advance'], dir);
    image(dir, '2.54');
    await runCli(['advance'], dir);
    expect((await runCli(['abort'], dir)).stdout).toContain('abort: routes to stable');
    expect(files(dir)).toContain('deployment-echoserver-canary.yaml');
    expect(files(dir)).not.toContain('ingress-echoserver-canary.yaml');
    expect((await runCli(['advance'], dir)).stdout).toContain('remove canary workloads');
    expect(files(dir)).not.toContain('deployment-echoserver-canary.yaml');
    expect((await runCli(['retry', '--removal', 'one-commit'], dir)).code).toBe(0);
    expect((await runCli(['abort', '--removal', 'one-commit'], dir)).stdout).not.toContain('routes to stable (canary');
    expect(files(dir)).not.toContain('deployment-echoserver-canary.yaml');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
