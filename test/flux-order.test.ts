import * as fs from 'fs';
import * as path from 'path';
import type { SimRequest } from '../src/contract/generator';
import { RenderPhase } from '../src/render/phase';
import { simulateRequest } from '../src/simulate/simulate';
import { fluxMoments } from '../src/simulate/transition';
import type { LoadedApp } from '../src/spec/loaded-app';
import { runCli } from './helpers/cli';
import { deadPods, generatorsOf, goldenCases, loadGoldenApp, objectsAt } from './helpers/golden-app';
import { makeAppDir, setImage, validateOutput } from './helpers/rollout-dir';

/** Flux applies workloads, then routes (the README's split), pruning as it goes; two-commit removal keeps that safe. */
const CASES = goldenCases('ingress-nginx');
const load = (name: string): LoadedApp => loadGoldenApp('ingress-nginx', name);

/** Requests that hit the canary in some step: a plain one and one per header/cookie match. */
function requests(app: LoadedApp): SimRequest[] {
  const base = { host: 'echo.example.com', path: '/', headers: {}, cookies: {}, query: {} };
  const out: SimRequest[] = [base];
  for (const s of app.rollouts[0].plan.steps) {
    for (const m of s.traffic.matches) {
      for (const h of m.headers)
        out.push({ ...base, headers: { [h.name.toLowerCase()]: h.type === 'Exact' ? h.value : 'a-pc-b' } });
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
        if (deadPods(split).length > 0) dead.push(`${path[i - 1].kind} -> ${path[i].kind}: ${moment.label}`);
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
    expect(
      deadMoments(app, [
        { kind: 'stable' },
        ...steps,
        { kind: 'promoting', step: n },
        { kind: 'draining', step: n },
        { kind: 'stable' },
      ]),
    ).toEqual([]);
    expect(deadMoments(app, [{ kind: 'step', step: k }, { kind: 'draining', step: k }, { kind: 'stable' }])).toEqual(
      [],
    );
  });
});

// Negative control: the same Flux model catches one-commit removal, so the tests above can fail.
// (A user-written canary Service falls back to stable pods in the same commit, which hides the gap.)
const EXPOSED = CASES.filter((name) => {
  const r = load(name).rollouts[0];
  return (
    r.spec.traffic.generateCanaryService &&
    r.plan.steps.some((s) => s.traffic.weight > 0 || s.traffic.matches.length > 0)
  );
});

test.each(EXPOSED)('Flux order: one-commit clean-up of %s does send requests to a pruned canary', (name) => {
  const app = load(name);
  const n = app.rollouts[0].plan.steps.length;
  expect(deadMoments(app, [{ kind: 'promoting', step: n }, { kind: 'stable' }]).length).toBeGreaterThan(0);
});

describe('two-commit removal through the CLI', () => {
  const files = (dir: string) => fs.readdirSync(path.join(dir, 'out')).sort();

  function setup(): string {
    const dir = makeAppDir('rollgen-removal-', path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver'));
    fs.writeFileSync(
      path.join(dir, 'rollgen.yaml'),
      'apps:\n  - source: src\n    output: out\n    name: echoserver\n    removal: two-commits\n',
    );
    return dir;
  }

  test('clean-up takes two commits: routes first, then the canary workloads', async () => {
    const dir = setup();
    for (let i = 0; i < 2; i++) expect((await runCli(['advance'], dir)).code).toBe(0);
    setImage(dir, '2.54');
    expect((await runCli(['advance'], dir)).code).toBe(0);
    expect(files(dir)).toContain('ingress-echoserver-canary.yaml');
    expect((await runCli(['promote', '--full'], dir)).code).toBe(0);
    const cleanup = await runCli(['advance'], dir);
    expect(cleanup.stdout).toContain('clean up: routes to stable (canary workloads next)');
    expect(files(dir)).not.toContain('ingress-echoserver-canary.yaml');
    expect(files(dir)).toContain('deployment-echoserver-canary.yaml');
    const checked = validateOutput(dir);
    if (checked) expect(checked).toContain('Deployment/echoserver-canary');
    const finish = await runCli(['advance'], dir);
    expect(finish.stdout).toContain('remove canary workloads');
    expect(files(dir)).not.toContain('deployment-echoserver-canary.yaml');
    expect((await runCli(['advance'], dir)).stdout).toContain('nothing to advance');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('abort takes two commits and the flag overrides rollgen.yaml', async () => {
    const dir = setup();
    for (let i = 0; i < 2; i++) await runCli(['advance'], dir);
    setImage(dir, '2.54');
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
