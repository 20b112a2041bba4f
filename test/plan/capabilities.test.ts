import { capabilities } from '../../generators/ingress-nginx';
import { missingFeatures } from '../../src/contract/capabilities';
import { defaultGatePolicy } from '../../src/plan/gates';
import { buildPlan } from '../../src/plan/plan';
import { TrafficState } from '../../src/model/plan';
import { loadApp } from '../../src/app/load-app';
import { RolloutSpec } from '../../src/model/rollout';
import { ParsedDocument } from '../../src/yaml/parse';
import { argo, argoRollout, kruise, kruiseV1alpha1, kruiseV1beta1, lineOf, parseAll } from './helpers';

/** The traffic state of each step, as the planner hands it to the provider check. */
const traffic = (rollout: RolloutSpec): TrafficState[] => buildPlan(rollout, 10).steps.map((s) => s.traffic);

const headers = (...pairs: [string, string][]) =>
  `  - headers:\n${pairs.map(([n, v]) => `    - name: ${n}\n      value: "${v}"`).join('\n')}`;

describe('missingFeatures with the ingress-nginx capabilities', () => {
  test('GIVEN a weight and one header match, ORed with a cookie match WHEN checked THEN nothing is missing', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(
        `- weight: 20\n  matches:\n${headers(['x-canary', 'on'])}\n${headers(['canary-by-cookie', 'beta'])}`,
      ),
    );
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual([]);
  });

  test('GIVEN two ANDed headers in one match WHEN checked THEN "match 1: 2 ANDed conditions (at most 1)"', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- weight: 20\n  matches:\n${headers(['x-a', '1'], ['x-b', '2'])}`));
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual(['match 1: 2 ANDed conditions (at most 1)']);
  });

  test('GIVEN a query parameter match WHEN checked THEN the query match is named', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 1\n  matches:\n  - queryParams:\n    - name: env\n      value: beta`),
    );
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual(['match 1: query parameter match "env"']);
  });

  test('GIVEN a path match WHEN checked THEN the path match is named', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 1\n  matches:\n  - path:\n      value: /api`));
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual(['match 1: path match "/api"']);
  });

  test('GIVEN a second match with a header and a query param WHEN checked THEN both the AND and the query are named for match 2', () => {
    const { rollout } = kruise(
      kruiseV1beta1(
        `- replicas: 1\n  matches:\n${headers(['x-ok', '1'])}\n  - headers:\n    - name: x-a\n      value: "1"\n    queryParams:\n    - name: q\n      value: "1"`,
      ),
    );
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual([
      'match 2: 2 ANDed conditions (at most 1)',
      'match 2: query parameter match "q"',
    ]);
  });

  test('GIVEN three ORed matches WHEN checked THEN "3 ORed matches (at most 2)"', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(
        `- weight: 20\n  matches:\n${headers(['x-a', '1'])}\n${headers(['x-b', '1'])}\n${headers(['x-c', '1'])}`,
      ),
    );
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual(['3 ORed matches (at most 2)']);
  });

  test('GIVEN a requestHeaderModifier WHEN checked THEN requestHeaderModifier is named', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 1\n  traffic: 10%\n  requestHeaderModifier:\n    remove: [x-debug]`),
    );
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual(['requestHeaderModifier']);
  });

  test('GIVEN an Argo setHeaderRoute WHEN checked THEN the header route is named', () => {
    const { rollout } = argo(
      argoRollout(
        `- setWeight: 10\n- setHeaderRoute:\n    name: hdr-1\n    match:\n    - headerName: x-canary\n      headerValue: {exact: "on"}`,
        {
          routing: `trafficRouting:\n  managedRoutes:\n  - name: hdr-1\n  nginx:\n    stableIngress: echoserver`,
        },
      ),
    );
    const states = traffic(rollout);
    expect(missingFeatures(capabilities, states[0])).toEqual([]);
    expect(missingFeatures(capabilities, states[1])).toEqual(['header route "hdr-1" (setHeaderRoute)']);
  });

  test('GIVEN an Argo setMirrorRoute WHEN checked THEN the mirror route is named', () => {
    const { rollout } = argo(
      argoRollout(`- setMirrorRoute:\n    name: mirror-1\n    match:\n    - method: {exact: GET}`, {
        routing: `trafficRouting:\n  managedRoutes:\n  - name: mirror-1\n  nginx:\n    stableIngress: echoserver`,
      }),
    );
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual(['mirror route "mirror-1" (setMirrorRoute)']);
  });

  test('GIVEN maxTrafficWeight 1000 WHEN checked THEN nginx accepts it (canary-weight-total)', () => {
    const { rollout } = argo(
      argoRollout(`- setWeight: 250`, {
        routing: `trafficRouting:\n  maxTrafficWeight: 1000\n  nginx:\n    stableIngress: echoserver`,
      }),
    );
    expect(missingFeatures(capabilities, traffic(rollout)[0])).toEqual([]);
  });
});

// ---------- app level: loadApp ----------

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: echoserver
  labels:
    app: echoserver
spec:
  replicas: 5
  selector:
    matchLabels:
      app: echoserver
  template:
    metadata:
      labels:
        app: echoserver
    spec:
      containers:
      - name: echoserver
        image: registry.k8s.io/e2e-test-images/agnhost:2.53
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: echoserver
spec:
  selector:
    app: echoserver
  ports:
  - name: http
    port: 80
    targetPort: 8080
`;

const INGRESS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: echoserver
spec:
  ingressClassName: nginx
  rules:
  - host: echo.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: echoserver
            port:
              number: 80
`;

const ROLLOUT_FILE = 'apps/echoserver/rollout.yaml';

function app(rolloutText: string): ParsedDocument[] {
  return [
    ...parseAll(DEPLOYMENT, 'apps/echoserver/deployment.yaml'),
    ...parseAll(SERVICE, 'apps/echoserver/service.yaml'),
    ...parseAll(INGRESS, 'apps/echoserver/ingress.yaml'),
    ...parseAll(rolloutText, ROLLOUT_FILE),
  ];
}

describe('loadApp: what ingress-nginx cannot express is a located plan-time error', () => {
  test('GIVEN a valid Kruise nginx app WHEN loaded THEN no errors and a 5-replica canary-style plan', () => {
    const loaded = loadApp(
      'echoserver',
      app(kruiseV1alpha1(`- weight: 20\n  pause: {}\n- weight: 60\n- replicas: "100%"\n  weight: 100`)),
      defaultGatePolicy,
    );
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(loaded.rollouts).toHaveLength(1);
    const plan = loaded.rollouts[0].plan;
    expect(plan.replicas).toBe(5);
    expect(plan.steps.map((s) => [s.canaryReplicas, s.stableReplicas, s.gate.kind])).toEqual([
      [1, 5, 'manual'],
      [3, 5, 'manual'],
      [5, 5, 'automatic'],
    ]);
  });

  test('GIVEN step 2 ANDs two headers WHEN loaded THEN one error naming app, rollout, step 2, ingress-nginx and the feature, at step 2', () => {
    const text = kruiseV1alpha1(`- weight: 20
  pause: {}
- weight: 40
  matches:
  - headers:
    - name: x-canary
      value: "on"
    - name: x-tenant
      value: beta
- weight: 100`);
    const loaded = loadApp('echoserver', app(text), defaultGatePolicy);
    const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toEqual([
      {
        file: ROLLOUT_FILE,
        line: lineOf(text, 'weight: 40'),
        col: expect.any(Number),
        message:
          'app echoserver, rollout rollouts-demo, step 2: provider ingress-nginx cannot express match 1: 2 ANDed conditions (at most 1)',
        severity: 'error',
      },
    ]);
  });

  test('GIVEN a v1beta1 step 1 with a query match WHEN loaded THEN the error names the query parameter at step 1', () => {
    const text = kruiseV1beta1(`- replicas: 20%
  matches:
  - queryParams:
    - name: env
      value: beta
- replicas: 100%`).replace('  namespace: default\n', '');
    const loaded = loadApp('shop', app(text), defaultGatePolicy);
    const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.file, d.line, d.message])).toEqual([
      [
        ROLLOUT_FILE,
        lineOf(text, 'replicas: 20%'),
        'app shop, rollout rollouts-demo, step 1: provider ingress-nginx cannot express match 1: query parameter match "env"',
      ],
    ]);
  });

  test('GIVEN an Argo setHeaderRoute on nginx WHEN loaded THEN the error names the header route at its step', () => {
    const text = argoRollout(
      `- setWeight: 10
- pause: {}
- setHeaderRoute:
    name: hdr-1
    match:
    - headerName: x-canary
      headerValue: {exact: "on"}`,
      { routing: `trafficRouting:\n  managedRoutes:\n  - name: hdr-1\n  nginx:\n    stableIngress: echoserver` },
    );
    const loaded = loadApp('echoserver', app(text), defaultGatePolicy);
    const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.line, d.message])).toEqual([
      [
        lineOf(text, 'setHeaderRoute:'),
        'app echoserver, rollout echoserver-rollout, step 2: provider ingress-nginx cannot express header route "hdr-1" (setHeaderRoute)',
      ],
    ]);
  });
});
