import * as fs from 'fs';
import { runCli } from '../helpers/cli';
import { lineOf, podTemplate, service, tempSources } from './sources';

/**
 * What the API server refuses is refused by rollgen at its line, at every command and on a first
 * deploy too, so a commit never fails at apply (issue 28, item 7).
 */
const app = tempSources('rollgen-api-server-');

// Argo's expectedfailures e2e Rollout, in other words: a memory request that is not a quantity.
const malformed = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: broken
spec:
${podTemplate(
  'broken',
  `          resources:
            requests:
              memory: invalid
`,
)}  strategy:
    canary: {}
`;

test('GIVEN a Rollout whose memory request is "invalid" WHEN validated, planned or first deployed THEN refused at the value', async () => {
  const dir = app({ 'rollout.yaml': malformed });
  const at = `src/rollout.yaml:${lineOf(malformed, 'memory: invalid')}:23: Rollout requests.memory "invalid" is not a quantity`;
  for (const args of [
    ['validate', 'src'],
    ['plan', 'src'],
    ['advance', 'src', 'out'],
  ]) {
    const r = await runCli(args, dir);
    expect({ args, code: r.code }).toEqual({ args, code: 2 });
    expect(r.stderr).toContain(at);
  }
  expect(fs.existsSync(`${dir}/out`)).toBe(false);
});

const huge = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
spec:
  replicas: 3
${podTemplate('web')}  strategy:
    canary:
      stableService: web
      canaryService: web-canary
      trafficRouting:
        nginx:
          stableIngress: web
      steps:
        - setWeight: 10
        - setCanaryScale:
            replicas: 1000000000000
`;
const ingress = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  ingressClassName: nginx
  rules:
    - host: web.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: web
                port:
                  number: 80
`;

test('GIVEN a step with replicas beyond int32 WHEN first deployed (steps skipped) THEN refused at the step all the same', async () => {
  const dir = app({
    'rollout.yaml': huge,
    'service.yaml': service('web', 'web'),
    'canary.yaml': service('web-canary', 'web'),
    'ingress.yaml': ingress,
  });
  const r = await runCli(['advance', 'src', 'out'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(huge, '1000000000000')}:23: spec.strategy.canary.steps[1].setCanaryScale.replicas: must be <= 2147483647, found 1000000000000`,
  );
  expect(fs.existsSync(`${dir}/out`)).toBe(false);
});

test('GIVEN duplicate container names, port numbers out of range and bad port names WHEN validated THEN each refused at its field, all at once', async () => {
  const rollout = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
spec:
${podTemplate(
  'web',
  `          ports:
            - containerPort: 80800
              name: http--x
            - containerPort: 9090
              hostPort: 70000
        - name: web
          image: registry.k8s.io/e2e-test-images/agnhost:2.53
          resources:
            limits:
              cpu: 1.5.5
            requests:
              cpu: -1
              memory: 64Mi
`,
)}  strategy:
    canary: {}
`;
  const svc = service('web', 'web')
    .replace('port: 80\n', 'port: 0\n')
    .replace('targetPort: 8080', 'targetPort: not_a_port');
  const dir = app({ 'rollout.yaml': rollout, 'service.yaml': svc });
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  const line = (n: string) => lineOf(rollout, n);
  for (const expected of [
    `src/rollout.yaml:${line('80800')}:30: Rollout containerPort 80800 must be a port number from 1 to 65535`,
    `src/rollout.yaml:${line('http--x')}:21: Rollout port name "http--x" must be at most 15`,
    `src/rollout.yaml:${line('70000')}:25: Rollout hostPort 70000 must be a port number from 0 to 65535`,
    `src/rollout.yaml:${rollout.split('\n').lastIndexOf('        - name: web') + 1}:17: Rollout container name "web" is used twice in the pod`,
    `src/rollout.yaml:${line('1.5.5')}:20: Rollout limits.cpu "1.5.5" is not a quantity`,
    `src/rollout.yaml:${line('cpu: -1')}:20: Rollout requests.cpu -1 must not be negative`,
    `src/service.yaml:${lineOf(svc, 'port: 0')}:13: Service port 0 must be a port number from 1 to 65535`,
    `src/service.yaml:${lineOf(svc, 'not_a_port')}:19: Service targetPort "not_a_port" is neither a port number nor a port name`,
  ])
    expect(r.stderr).toContain(expected);
  expect(r.stderr).not.toContain('memory');
});

test('GIVEN quantities in every form the API server takes WHEN validated THEN accepted', async () => {
  const rollout = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
spec:
${podTemplate(
  'web',
  `          resources:
            limits: {cpu: 2, memory: 1Gi, ephemeral-storage: 1e3, example.com/gpu: "1"}
            requests: {cpu: 500m, memory: .5G, ephemeral-storage: 100M}
`,
)}  strategy:
    canary: {}
`;
  const r = await runCli(['validate', 'src'], app({ 'rollout.yaml': rollout }));
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
});
