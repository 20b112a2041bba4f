import * as fs from 'fs';
import * as path from 'path';
import type { SimRequest } from '../src/contract/generator';
import { KubeObject } from '../src/model/kube';
import { ResourceSet } from '../src/model/resource-set';
import { renderApp } from '../src/render/render-app';
import { defaultTrackLabel } from '../src/model/track';
import { colorAtGateway } from '../src/simulate/coloring';
import { simulateRequest } from '../src/simulate/simulate';
import type { LoadedApp } from '../src/spec/loaded-app';
import { statesAtStep } from '../src/state/render-states';
import { runCli } from './helpers/cli';
import { loadAppFrom } from './helpers/golden-app';
import { makeAppDir, validateOutput } from './helpers/rollout-dir';

/**
 * The full-link example: the gateway colours a request, mocka routes it by colour, and mocka's
 * call to mockb carries the colour on, so a coloured request stays on canary pods end to end.
 */
const EXAMPLE = path.join(__dirname, '..', 'examples', 'kruise-istio', 'full-link');
const track = defaultTrackLabel;

const load = (): LoadedApp => loadAppFrom('full-link', EXAMPLE, EXAMPLE);

function objectsAt(app: LoadedApp, step: number): KubeObject[] {
  const states = statesAtStep(app, { resources: new ResourceSet([]) }, step, track).map((s) => ({
    ...s,
    canaryPod: { ...s.canaryPod, revision: 'new' },
  }));
  return renderApp(app, states, track);
}

/** Follows one request from the gateway through mocka to mockb; returns the Deployment serving each hop. */
function follow(app: LoadedApp, objects: readonly KubeObject[], headers: Record<string, string>): string[] {
  const generators = app.rollouts
    .flatMap((r) => r.providers.map((p) => p.generator))
    .concat(app.routings.flatMap((r) => r.providers.map((p) => p.generator)));
  const entry: SimRequest = colorAtGateway(objects, { host: 'mocka', path: '/', headers, cookies: {}, query: {} });
  const hops: string[] = [];
  // The sample app forwards only my-request-id downstream, as in the Kruise/Istio example.
  for (const host of ['mocka', 'mockb']) {
    const request = { ...entry, host, headers: { 'my-request-id': entry.headers['my-request-id'] } };
    const split = simulateRequest(objects, generators, request);
    const served = split?.pods.filter((p) => p.share > 0).map((p) => `${p.deployment}:${p.share}`) ?? ['no route'];
    hops.push(served.join(','));
  }
  return hops;
}

describe('full-link canary through two services', () => {
  const app = load();

  test('the example loads cleanly: one TrafficRouting, both rollouts its members', () => {
    expect(app.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(app.routings.map((r) => [r.spec.name, r.members])).toEqual([['full-link', ['mocka', 'mockb']]]);
  });

  test('in step 1 a request the gateway colours canary stays on canary pods in both services', () => {
    const objects = objectsAt(app, 1);
    expect(follow(app, objects, { agent: 'pc' })).toEqual(['mocka-canary:1', 'mockb-canary:1']);
  });

  test('in step 1 every other request stays on stable pods, even if it claims the canary colour', () => {
    const objects = objectsAt(app, 1);
    expect(follow(app, objects, { agent: 'mobile' })).toEqual(['mocka:1', 'mockb:1']);
    expect(follow(app, objects, { 'my-request-id': 'canary' })).toEqual(['mocka:1', 'mockb:1']);
  });

  test('in the stable state the coloured request reaches stable pods only', () => {
    expect(follow(app, objectsAt(app, 0), { agent: 'pc' })).toEqual(['mocka:1', 'mockb:1']);
  });

  // The classic example: stable pods are `version: base`, the subset `version-base` selects them and
  // patchPodTemplateMetadata labels canary pods `version: canary`. Stable pods must keep their label.
  test.each([0, 1, 2])('at step %i a plain request is served by stable pods of both services', (step) => {
    const objects = objectsAt(app, step);
    expect(follow(app, objects, {})).toEqual(['mocka:1', 'mockb:1']);
    const stable = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'mocka')!;
    expect((stable.spec as { template: { metadata: { labels: object } } }).template.metadata.labels).toMatchObject({
      version: 'base',
    });
  });

  test.each([1, 2])('at step %i a coloured request is served by the canary pods of both services', (step) => {
    expect(follow(app, objectsAt(app, step), { agent: 'pc' })).toEqual(['mocka-canary:1', 'mockb-canary:1']);
  });
});

test('bin/rollgen advances both services in lock-step through a whole rollout, every output builds and validates', async () => {
  const dir = makeAppDir('rollgen-full-link-', EXAMPLE);
  const advance = async () => {
    const r = await runCli(['advance', 'src', 'out'], dir);
    expect(r.code).toBe(0);
    validateOutput(dir);
    return r.stdout;
  };
  await advance();
  await advance();
  for (const f of ['mocka.yaml', 'mockb.yaml']) {
    const file = path.join(dir, 'src', f);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('go-http-sample:1.0', 'go-http-sample:1.1'));
  }
  expect(await advance()).toMatch(/mocka: start[\s\S]*mockb: start/);
  expect(await advance()).toMatch(/mocka: step 1 of 2 -> step 2 of 2[\s\S]*mockb: step 1 of 2 -> step 2 of 2/);
  expect(await advance()).toMatch(/mocka: promote[\s\S]*mockb: promote/);
  expect(await advance()).toMatch(/mocka: clean up[\s\S]*mockb: clean up/);
  expect(fs.readdirSync(path.join(dir, 'out')).filter((f) => f.includes('canary'))).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('bin/rollgen on the full-link example', () => {
  test('plan shows the TrafficRouting provider and its matches at every step of each member', async () => {
    const r = await runCli(['plan', EXAMPLE], EXAMPLE);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rollout mocka \(.*providers: istio \(TrafficRouting full-link\)\)/);
    const mockaRows = r.stdout
      .split('\n\n')[0]
      .split('\n')
      .filter((l) => /^[12] /.test(l));
    expect(mockaRows).toHaveLength(2);
    for (const line of mockaRows) expect(line).toContain('my-request-id=canary (full-link)');
  });

  test.each([
    [0, {}, 'mocka -> mocka'],
    [0, { agent: 'pc' }, 'mocka -> mocka'],
    [1, {}, 'mocka -> mocka'],
    [1, { agent: 'pc' }, 'mocka -> mocka-canary'],
    [2, { agent: 'pc' }, 'mocka -> mocka-canary'],
  ])(
    'simulate --step %i %j: the gateway colours the request, then the TrafficRouting routes it',
    async (step, h, to) => {
      const headers = Object.entries(h).flatMap(([k, v]) => ['--header', `${k}=${v}`]);
      const r = await runCli(['simulate', EXAMPLE, '--step', String(step), '--host', 'mocka', ...headers], EXAMPLE);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`100.0%  service ${to}\n`);
    },
  );
});
