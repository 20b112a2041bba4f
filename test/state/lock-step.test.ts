import { ResourceSet } from '../../src/model/resource-set';
import { defaultGatePolicy } from '../../src/plan/gates';
import { renderApp } from '../../src/render/render-app';
import { defaultTrackLabel } from '../../src/model/track';
import { loadApp } from '../../src/app/load-app';
import type { LoadedApp } from '../../src/spec/loaded-app';
import { AppCommand, OutputSnapshot, transitionApp } from '../../src/state/app-state';
import { AppStatus } from '../../src/state/status';
import { parseYamlStream } from '../../src/yaml/parse';

/** Rollouts that share a Kruise TrafficRouting advance in lock-step; its strategy is on while any member runs a canary. */
const track = defaultTrackLabel;

const deployment = (name: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: app, image: ${image}}]}
---
apiVersion: v1
kind: Service
metadata: {name: ${name}}
spec: {selector: {app: ${name}}, ports: [{port: 80}]}
`;

const rollout = (name: string, steps: string) => `apiVersion: rollouts.kruise.io/v1alpha1
kind: Rollout
metadata:
  name: ${name}
  annotations: {rollouts.kruise.io/trafficrouting: lane}
spec:
  objectRef: {workloadRef: {apiVersion: apps/v1, kind: Deployment, name: ${name}}}
  strategy:
    canary:
      steps: ${steps}
      patchPodTemplateMetadata: {labels: {lane: gray}}
`;

const ROUTING = `apiVersion: rollouts.kruise.io/v1alpha1
kind: TrafficRouting
metadata: {name: lane}
spec:
  objectRef:
    - service: a
      ingress: {classType: nginx, name: a}
  strategy:
    matches: [{headers: [{type: Exact, name: x-lane, value: gray}]}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: a}
spec:
  rules:
    - host: a.example.com
      http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: a, port: {number: 80}}}}]}
`;

const TWO_STEPS = '[{replicas: 1, pause: {}}, {replicas: 2}]';

function load(images: { a: string; b: string }, stepsB = TWO_STEPS, withRouting = true): LoadedApp {
  const text = [
    deployment('a', images.a),
    deployment('b', images.b),
    rollout('a', TWO_STEPS),
    rollout('b', stepsB),
    ...(withRouting ? [ROUTING] : []),
  ].join('---\n');
  const { documents } = parseYamlStream('app.yaml', text);
  return loadApp('shop', documents, defaultGatePolicy);
}

/** Applies a command to an app and returns the snapshot the output would then hold. */
function step(
  app: LoadedApp,
  output: OutputSnapshot,
  command: AppCommand = { kind: 'advance' },
): { output: OutputSnapshot; status: AppStatus; actions: string[] } {
  const t = transitionApp(app, output, command, track);
  const objects = renderApp(app, t.states, track);
  const resources = new ResourceSet(
    objects.map((object) => ({
      object,
      origin: { file: 'out', line: 1, col: 1 },
      locate: () => ({ file: 'out', line: 1, col: 1 }),
    })),
  );
  return {
    output: { status: t.status, resources },
    status: t.status,
    actions: t.actions.map((a) => `${a.rollout}: ${a.action}`),
  };
}

const canaryIngress = (o: OutputSnapshot) => o.resources.find('Ingress', 'a-canary');
const steps = (s: AppStatus) => s.rollouts.map((r) => `${r.name}:${r.phase}@${r.step}`);

test('members start together, share one step, and the shared routing is on only while a canary runs', () => {
  let cur = step(load({ a: 'v1', b: 'v1' }), { resources: new ResourceSet([]) });
  cur = step(load({ a: 'v1', b: 'v1' }), cur.output);
  expect(canaryIngress(cur.output)).toBeUndefined();
  const v2 = load({ a: 'v2', b: 'v2' });
  cur = step(v2, cur.output);
  expect(steps(cur.status)).toEqual(['a:Progressing@1', 'b:Progressing@1']);
  expect(canaryIngress(cur.output)?.object.metadata.annotations?.['nginx.ingress.kubernetes.io/canary-by-header']).toBe(
    'x-lane',
  );
  cur = step(v2, cur.output);
  expect(steps(cur.status)).toEqual(['a:Progressing@2', 'b:Progressing@2']);
  cur = step(v2, cur.output);
  expect(steps(cur.status)).toEqual(['a:Promoting@2', 'b:Promoting@2']);
  expect(canaryIngress(cur.output)).toBeDefined();
  cur = step(v2, cur.output);
  expect(steps(cur.status)).toEqual(['a:Healthy@0', 'b:Healthy@0']);
  expect(canaryIngress(cur.output)).toBeUndefined();
});

test('a new revision of one member restarts every live member at step 1', () => {
  let cur = step(load({ a: 'v1', b: 'v1' }), { resources: new ResourceSet([]) });
  cur = step(load({ a: 'v1', b: 'v1' }), cur.output);
  cur = step(load({ a: 'v2', b: 'v2' }), cur.output);
  cur = step(load({ a: 'v2', b: 'v2' }), cur.output);
  expect(steps(cur.status)).toEqual(['a:Progressing@2', 'b:Progressing@2']);
  cur = step(load({ a: 'v3', b: 'v2' }), cur.output);
  expect(steps(cur.status)).toEqual(['a:Progressing@1', 'b:Progressing@1']);
  expect(cur.actions).toEqual(['a: restart with new revision', 'b: restart at step 1 in lock-step with a']);
});

test('one member changing alone runs its canary alone, and the shared routing is on', () => {
  let cur = step(load({ a: 'v1', b: 'v1' }), { resources: new ResourceSet([]) });
  cur = step(load({ a: 'v1', b: 'v1' }), cur.output);
  cur = step(load({ a: 'v1', b: 'v2' }), cur.output);
  expect(steps(cur.status)).toEqual(['a:Healthy@0', 'b:Progressing@1']);
  expect(canaryIngress(cur.output)).toBeDefined();
  expect(cur.output.resources.find('Deployment', 'a-canary')).toBeUndefined();
  expect(cur.output.resources.find('Deployment', 'b-canary')?.object.spec).toMatchObject({
    template: { metadata: { labels: { lane: 'gray' } } },
  });
});

test('members need one step count, and the TrafficRouting must be in the app', () => {
  const mismatch = load({ a: 'v1', b: 'v1' }, '[{replicas: 1}]');
  expect(mismatch.diagnostics.map((d) => d.message)).toContainEqual(
    expect.stringContaining('lock-step, so they need the same number of steps; found a (2), b (1)'),
  );
  const missing = load({ a: 'v1', b: 'v1' }, TWO_STEPS, false);
  expect(
    missing.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}: ${d.message}`),
  ).toContainEqual(expect.stringMatching(/^\d+: rollout a references TrafficRouting "lane", which is not in app shop/));
});

test('a member already promoting finishes instead of restarting when another member starts', () => {
  let cur = step(load({ a: 'v1', b: 'v1' }), { resources: new ResourceSet([]) });
  cur = step(load({ a: 'v1', b: 'v1' }), cur.output);
  const aOnly = load({ a: 'v2', b: 'v1' });
  for (let i = 0; i < 3; i++) cur = step(aOnly, cur.output);
  expect(steps(cur.status)).toEqual(['a:Promoting@2', 'b:Healthy@0']);
  cur = step(load({ a: 'v2', b: 'v2' }), cur.output);
  expect(steps(cur.status)).toEqual(['a:Healthy@0', 'b:Progressing@1']);
  expect(cur.actions).toEqual(['a: clean up', 'b: start']);
});
