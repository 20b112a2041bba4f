import { runCli } from '../helpers/cli';
import { podTemplate, service, tempSources } from './sources';

/** `simulate` follows what Argo's SMI and Ambassador examples route (issue 28). */
const app = tempSources('rollgen-simulate-gaps-');

const rollout = (name: string, routing: string) => `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: ${name}
spec:
  replicas: 2
${podTemplate(name)}  strategy:
    canary:
      canaryService: ${name}-preview
      stableService: ${name}-main
      trafficRouting:
${routing}      steps:
        - setWeight: 10
        - pause: {}
`;

// Argo's SMI e2e test, in other words: a plain Ingress in front, the TrafficSplit's root is the stable Service.
test('GIVEN an SMI rollout behind an Ingress of its own, root Service not named like the Rollout WHEN simulated THEN the request goes Ingress -> TrafficSplit -> both versions', async () => {
  const dir = app({
    'rollout.yaml': rollout('mesh-demo', '        smi:\n          trafficSplitName: mesh-demo-split\n'),
    'main.yaml': service('mesh-demo-main', 'mesh-demo'),
    'preview.yaml': service('mesh-demo-preview', 'mesh-demo'),
    'ingress.yaml': `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: mesh-demo-edge
spec:
  ingressClassName: nginx
  rules:
    - host: mesh-demo.local
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: mesh-demo-main
                port:
                  number: 80
`,
  });
  const r = await runCli(['simulate', 'src', '--step', '1'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(
    'rule: Ingress mesh-demo-edge / -> TrafficSplit mesh-demo-split (root mesh-demo-main)\n' +
      '  10.0%  service mesh-demo-preview -> mesh-demo-canary\n' +
      '  90.0%  service mesh-demo-main -> mesh-demo\n',
  );
  // A host the Ingress does not serve still matches nothing, and says which hosts it serves.
  const other = await runCli(['simulate', 'src', '--step', '1', '--host', 'elsewhere.local'], dir);
  expect(other.stdout).toContain('no route matches this request; the routes serve hosts: mesh-demo.local; paths: /');
});

test('GIVEN an Ambassador Mapping on prefix /greet WHEN simulated without --path THEN the request takes the Mapping prefix; with another path the hint lists it', async () => {
  const mapping = `apiVersion: getambassador.io/v2
kind: Mapping
metadata:
  name: greeter
spec:
  prefix: /greet
  rewrite: /
  service: greeter-main:80
`;
  const dir = app({
    'rollout.yaml': rollout('greeter', '        ambassador:\n          mappings: [greeter]\n'),
    'main.yaml': service('greeter-main', 'greeter'),
    'preview.yaml': service('greeter-preview', 'greeter'),
    'mapping.yaml': mapping,
  });
  const r = await runCli(['simulate', 'src', '--step', '1'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("request: no host, path /greet (the routes' own)\n");
  expect(r.stdout).toMatch(/10\.0% +service greeter-preview -> greeter-canary/);
  const miss = await runCli(['simulate', 'src', '--step', '1', '--path', '/other'], dir);
  expect(miss.stdout).toContain(
    'no route matches this request; the routes serve hosts: any (no host rules); paths: /greet',
  );
});
