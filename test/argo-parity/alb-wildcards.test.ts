import * as fs from 'fs';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli';
import { lineOf, podTemplate, service, sourceDir } from './sources';

/**
 * Argo's ALB header-routing e2e test, in other words: an exact header value with `*` is passed to
 * the ALB as Argo passes it, where it is a wildcard; warned at the step (issue 28, item 3).
 */
let dir = '';
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const rollout = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: alb-app
spec:
  replicas: 2
${podTemplate('alb-app')}  strategy:
    canary:
      stableService: alb-app-stable
      canaryService: alb-app-canary
      trafficRouting:
        managedRoutes:
          - name: browser-route
        alb:
          ingress: alb-app
          rootService: alb-app-root
          servicePort: 80
      steps:
        - setWeight: 20
        - pause: {}
        - setHeaderRoute:
            name: browser-route
            match:
              - headerName: User-Agent
                headerValue:
                  exact: Mozilla*
        - pause: {}
        - setHeaderRoute:
            name: browser-route
`;
const ingress = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: alb-app
spec:
  ingressClassName: alb
  rules:
    - http:
        paths:
          - path: /*
            pathType: ImplementationSpecific
            backend:
              service:
                name: alb-app-root
                port:
                  name: use-annotation
`;

beforeAll(() => {
  dir = sourceDir('rollgen-alb-wildcard-', {
    'rollout.yaml': rollout,
    'ingress.yaml': ingress,
    'root.yaml': service('alb-app-root', 'alb-app'),
    'stable.yaml': service('alb-app-stable', 'alb-app'),
    'canary.yaml': service('alb-app-canary', 'alb-app'),
  });
});

test('GIVEN an ALB header route with exact "Mozilla*" WHEN planned THEN accepted and warned at its step that the ALB reads * as a wildcard', async () => {
  const r = await runCli(['plan', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe(
    `src/rollout.yaml:${lineOf(rollout, '- setHeaderRoute:')}:11: warning: header route "browser-route": the ALB matches header User-Agent exact "Mozilla*" with * and ? as wildcards (* any run of characters, ? one), as Argo writes it; ALB has no escape for them, so a literal * or ? cannot be matched\n`,
  );
  expect(r.stdout).toMatch(/^2 +1 +2 +20% +User-Agent=Mozilla\* +- +manual$/m);
});

test('GIVEN that route WHEN rendered and simulated THEN the condition holds the value as written, and any Mozilla browser reaches the canary', async () => {
  const render = await runCli(['render', 'src', '--step', '2'], dir);
  expect(render.code).toBe(0);
  const objects = parseAllDocuments(render.stdout).map((d) => d.toJS());
  const ing = objects.find((o) => o.kind === 'Ingress');
  expect(JSON.parse(ing.metadata.annotations['alb.ingress.kubernetes.io/conditions.browser-route'])).toEqual([
    { field: 'http-header', httpHeaderConfig: { httpHeaderName: 'User-Agent', values: ['Mozilla*'] } },
  ]);
  const firefox = await runCli(['simulate', 'src', '--step', '2', '--header', 'User-Agent=Mozilla/5.0 Firefox'], dir);
  expect(firefox.stdout).toMatch(/100(\.0)?% +service alb-app-canary/);
  const curl = await runCli(['simulate', 'src', '--step', '2', '--header', 'User-Agent=curl/8'], dir);
  expect(curl.stdout).not.toMatch(/100(\.0)?% +service alb-app-canary/);
});
