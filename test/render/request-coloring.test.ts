import { stringify } from 'yaml';
import { defaultGatePolicy } from '../../src/plan/gates';
import { colorAtGateway } from '../../src/simulate/coloring';
import { loadApp } from '../../src/app/load-app';
import { parseYamlStream } from '../../src/yaml/parse';
import { validateAgainstSchemas } from '../helpers/schema';

/** RequestColoring -> EnvoyFilter at the ingress gateway; the simulator runs the rendered Lua. */
const SPEC = `apiVersion: rollgen.dev/v1alpha1
kind: RequestColoring
metadata: {name: lanes, namespace: istio-system}
spec:
  gateway: {istio: ingressgateway}
  header: my-request-id
  rules:
    - when: {agent: pc}
      value: canary
    - when: {agent: "say \\"hi\\"", region: eu}
      value: eu-lane
  default: base
`;

function envoyFilter(text = SPEC) {
  const app = loadApp('mesh', parseYamlStream('coloring.yaml', text).documents, defaultGatePolicy);
  return { app, objects: app.resources.items.map((i) => i.object) };
}

const req = (headers: Record<string, string>) => ({ path: '/', headers, cookies: {}, query: {} });

test('renders one EnvoyFilter that validates against the Istio schema', () => {
  const { app, objects } = envoyFilter();
  expect(app.diagnostics).toEqual([]);
  expect(objects.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
    'EnvoyFilter/istio-system/lanes',
  ]);
  expect(validateAgainstSchemas(stringify(objects[0]))).toEqual(['EnvoyFilter/lanes']);
  expect(objects[0].spec).toMatchObject({ workloadSelector: { labels: { istio: 'ingressgateway' } } });
});

test('colours by the first matching rule, replaces a client-sent value, defaults otherwise', () => {
  const { objects } = envoyFilter();
  expect(colorAtGateway(objects, req({ agent: 'pc' })).headers['my-request-id']).toBe('canary');
  expect(colorAtGateway(objects, req({ agent: 'pc', 'my-request-id': 'spoofed' })).headers['my-request-id']).toBe(
    'canary',
  );
  expect(colorAtGateway(objects, req({ agent: 'say "hi"', region: 'eu' })).headers['my-request-id']).toBe('eu-lane');
  expect(colorAtGateway(objects, req({ agent: 'say "hi"' })).headers['my-request-id']).toBe('base');
  expect(colorAtGateway(objects, req({ 'my-request-id': 'canary' })).headers['my-request-id']).toBe('base');
});

test('a Lua shape the simulator does not know fails loudly instead of passing', () => {
  const { objects } = envoyFilter();
  const patched = JSON.parse(JSON.stringify(objects[0]).replace(/headers:replace/g, 'headers:add'));
  expect(() => colorAtGateway([patched], req({ agent: 'pc' }))).toThrow(/unrecognised RequestColoring Lua/);
});

test('an invalid spec is reported at its line', () => {
  const { app } = envoyFilter(SPEC.replace('default: base\n', ''));
  expect(app.diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`)).toEqual([
    expect.stringMatching(/^coloring\.yaml:5: spec: missing required field "default"/),
  ]);
});
