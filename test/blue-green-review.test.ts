import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';

/**
 * Blue-green as a new user meets it, from outside (the CLI): what the Argo and OpenKruise projects'
 * own blue-green manifests, recreated, do at each state, and what rollgen says where they differ.
 */
const GOLDEN = path.join(__dirname, 'golden', 'core');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A fresh app directory holding `src/app.yaml`. */
function appDir(yaml: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-bg-review-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'app.yaml'), yaml);
  return dir;
}

test('Kruise blue-green without trafficRoutings: simulate names the Service and the share each version gets by pods', async () => {
  const r = await runCli(['simulate', 'source', '--step', '1'], path.join(GOLDEN, 'kruise-blue-green-without-routing'));
  expect(r.code).toBe(0);
  // 3 new pods beside 5 old ones behind one Service: traffic 0% routes nothing, as Kruise does.
  expect(r.stdout.split('\n').slice(2)).toEqual([
    '  62.5%  service echoserver -> echoserver',
    '  37.5%  service echoserver -> echoserver-canary',
    '',
  ]);
  const json = await runCli(
    ['simulate', 'source', '--step', '1', '--json'],
    path.join(GOLDEN, 'kruise-blue-green-without-routing'),
  );
  expect(JSON.parse(json.stdout).services).toEqual([
    { role: null, share: 0.625, service: 'echoserver', deployment: 'echoserver' },
    { role: null, share: 0.375, service: 'echoserver', deployment: 'echoserver-canary' },
  ]);
});

/** A Service `name` with `selector` and an nginx Ingress on host `<name>.example.com` in front of it. */
const serviceAndIngress = (name: string, selector: string) => `---
apiVersion: v1
kind: Service
metadata: {name: ${name}}
spec:
  selector: ${selector}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: ${name}}
spec:
  ingressClassName: nginx
  rules:
    - host: ${name}.example.com
      http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: ${name}, port: {number: 80}}}}]}
`;

const argoCanary = (canaryMetadata: string) => `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: example/web:1}]}
  strategy:
    canary:
      stableService: web
      stableMetadata: {labels: {role: stable}}
      ${canaryMetadata}
      trafficRouting: {nginx: {stableIngress: web}}
      steps: [{setWeight: 20}, {pause: {}}]
${serviceAndIngress('web', '{app: web, role: stable}')}`;

test('a stable Service selecting a stableMetadata label: the generated canary Service would select no pods, so it is refused at the selector', async () => {
  const r = await runCli(['validate', 'src'], appDir(argoCanary('')));
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `src/app.yaml:22:30: rollout web: Service "web-canary" selects role: stable, but the new version's pods (canaryMetadata) carry no role label`,
  );
});

test('the same label given to the canary pods by canaryMetadata: the generated canary Service selects them, and simulate shows it', async () => {
  const dir = appDir(argoCanary('canaryMetadata: {labels: {role: canary}}'));
  expect((await runCli(['validate', 'src'], dir)).code).toBe(0);
  const r = await runCli(['simulate', 'src', '--step', '1'], dir);
  expect(r.stdout).toContain('20.0%  service web-canary -> web-canary');
});

const kruiseSharedService = `apiVersion: rollouts.kruise.io/v1beta1
kind: Rollout
metadata: {name: echo}
spec:
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: echo}
  strategy:
    blueGreen:
      disableGenerateCanaryService: true
      steps:
        - {replicas: 50%, traffic: 0%, pause: {}}
        - {replicas: 100%, traffic: 100%}
      trafficRoutings:
        - {service: echo, ingress: {classType: nginx, name: echo}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: echo}
spec:
  replicas: 5
  selector: {matchLabels: {app: echo}}
  template:
    metadata: {labels: {app: echo}}
    spec: {containers: [{name: echo, image: example/echo:1}]}
${serviceAndIngress('echo', '{app: echo}')}`;

test('Kruise blue-green with disableGenerateCanaryService: traffic 0% still reaches the new version by pods (simulate), and validate says so where it is written', async () => {
  const dir = appDir(kruiseSharedService);
  const validate = await runCli(['validate', 'src'], dir);
  expect(validate.code).toBe(0);
  expect(validate.stderr).toContain(
    "src/app.yaml:8:37: warning: blue-green with disableGenerateCanaryService: Kruise leaves the Service selecting both versions' pods",
  );
  const sim = await runCli(['simulate', 'src', '--step', '1'], dir);
  expect(sim.stdout).toContain('37.5%  service echo -> echo-canary');
});

test('an Argo blue-green Service with a sync-wave of its own: rollgen writes its wave one after the Deployment and warns at the annotation', async () => {
  const dir = appDir(`apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec: {containers: [{name: shop, image: example/shop:blue}]}
  strategy:
    blueGreen: {activeService: shop}
---
kind: Service
apiVersion: v1
metadata:
  name: shop
  annotations: {argocd.argoproj.io/sync-wave: "-2"}
spec:
  selector: {app: shop}
  ports: [{port: 80, targetPort: 8080}]
`);
  const r = await runCli(['render', 'src', '--step', '2'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe(
    'src/app.yaml:17:47: warning: rollout shop: sync-wave "-2" of Service "shop" is replaced by "1": blue-green Services switch one wave after the Deployment, so Argo CD moves them only to ready pods; remove the annotation\n',
  );
  expect(r.stdout).toContain('argocd.argoproj.io/sync-wave: "1"');
});
