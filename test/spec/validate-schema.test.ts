import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Diagnostic } from '../../src/diagnostics';
import { parseYamlStream } from '../../src/yaml/parse';
import { SchemaId, validateSchema } from '../../src/spec/validate-schema';

const FILE = 'apps/echoserver/rollout.yaml';

function check(id: SchemaId, text: string): Diagnostic[] {
  const { documents, diagnostics } = parseYamlStream(FILE, text);
  expect(diagnostics).toEqual([]);
  expect(documents).toHaveLength(1);
  return validateSchema(id, documents[0]);
}

/** 1-based line:col of the `nth` occurrence of `needle`, so expectations follow the fixture text. */
function positionOf(text: string, needle: string, nth = 1): { line: number; col: number } {
  let index = -1;
  for (let i = 0; i < nth; i++) index = text.indexOf(needle, index + 1);
  if (index < 0) throw new Error(`fixture has no ${needle}`);
  const before = text.slice(0, index);
  return { line: before.split('\n').length, col: index - before.lastIndexOf('\n') };
}

function brief(list: readonly Diagnostic[]): string[] {
  return list.map((d) => `${d.line}:${d.col} ${d.message}`);
}

// Kruise docs' echoserver example (v1alpha1), with a header-match step added.
const KRUISE_V1ALPHA1 = `apiVersion: rollouts.kruise.io/v1alpha1
kind: Rollout
metadata:
  name: rollouts-demo
  annotations:
    rollouts.kruise.io/rolling-style: partition
spec:
  objectRef:
    workloadRef:
      apiVersion: apps/v1
      kind: Deployment
      name: echoserver
  strategy:
    canary:
      steps:
      - weight: 5
        matches:
        - headers:
          - type: Exact
            name: user-agent
            value: pc
        pause: {}
      - weight: 40
        replicas: 50%
        pause: {duration: 60}
      - weight: 100
        pause: {duration: 60}
      trafficRoutings:
      - service: echoserver
        ingress:
          classType: nginx
          name: echoserver
`;

// Kruise docs' echoserver example (v1beta1).
const KRUISE_V1BETA1 = `apiVersion: rollouts.kruise.io/v1beta1
kind: Rollout
metadata:
  name: rollouts-demo
  namespace: default
spec:
  workloadRef:
    apiVersion: apps/v1
    kind: Deployment
    name: echoserver
  strategy:
    canary:
      enableExtraWorkloadForCanary: true
      steps:
      - replicas: 1
        matches:
        - headers:
          - type: Exact
            name: user-agent
            value: pc
          queryParams:
          - name: canary
            value: "true"
          path:
            type: PathPrefix
            value: /api
        requestHeaderModifier:
          set:
          - name: x-canary
            value: "yes"
        pause: {}
      - traffic: 20%
        replicas: 20%
        pause: {duration: 60}
      - traffic: 50%
        replicas: 50%
        pause: {duration: 60}
      - replicas: 100%
      trafficRoutings:
      - service: echoserver
        gracePeriodSeconds: 3
        ingress:
          classType: nginx
          name: echoserver
      failureThreshold: 10%
      patchPodTemplateMetadata:
        labels:
          version: canary
`;

const TRAFFIC_ROUTING = `apiVersion: rollouts.kruise.io/v1alpha1
kind: TrafficRouting
metadata:
  name: mse-traffic
spec:
  objectRef:
  - service: spring-cloud-a
    ingress:
      classType: mse
      name: spring-cloud-a
  strategy:
    weight: 10
    matches:
    - headers:
      - type: Exact
        name: User-Agent
        value: xiaoming
    requestHeaderModifier:
      set:
      - name: x-mse-tag
        value: gray
`;

// Argo docs' canary example with nginx traffic routing.
const ARGO_NGINX = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: rollouts-demo
spec:
  replicas: 5
  workloadRef:
    apiVersion: apps/v1
    kind: Deployment
    name: rollouts-demo
  strategy:
    canary:
      canaryService: rollouts-demo-canary
      stableService: rollouts-demo-stable
      trafficRouting:
        nginx:
          stableIngress: rollouts-demo-stable
          additionalIngressAnnotations:
            canary-by-header: X-Canary
            canary-by-header-value: iwantsit
      steps:
      - setWeight: 5
      - pause: {}
      - setWeight: 40
      - pause: {duration: 10m}
      - setWeight: 80
      - pause: {duration: 60}
`;

// Argo Rollout with an inline pod template, Istio routing and header/mirror routes.
const ARGO_TEMPLATE = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: istio-demo
spec:
  replicas: 4
  revisionHistoryLimit: 2
  selector:
    matchLabels:
      app: istio-demo
  template:
    metadata:
      labels:
        app: istio-demo
    spec:
      containers:
      - name: istio-demo
        image: argoproj/rollouts-demo:blue
        ports:
        - containerPort: 8080
  strategy:
    canary:
      canaryService: istio-demo-canary
      stableService: istio-demo-stable
      canaryMetadata:
        labels:
          role: canary
      trafficRouting:
        managedRoutes:
        - name: header-route
        - name: mirror-route
        istio:
          virtualService:
            name: istio-demo
            routes:
            - primary
          destinationRule:
            name: istio-demo
            canarySubsetName: canary
            stableSubsetName: stable
      steps:
      - setCanaryScale:
          replicas: 1
      - setHeaderRoute:
          name: header-route
          match:
          - headerName: X-Canary
            headerValue:
              exact: "yes"
      - setMirrorRoute:
          name: mirror-route
          percentage: 35
          match:
          - method:
              exact: GET
            path:
              prefix: /
            headers:
              agent-1b:
                regex: firefox.*
      - pause: {duration: 1h}
      - setWeight: 25
      - pause: {}
`;

const CONFIG = `apps:
  - source: apps/echoserver
    output: deploy/echoserver
  - source: apps/*
    output: deploy/{name}
    name: web
    gates:
      firstStep: manual
      unpaused: automatic
pr:
  labels: [rollout]
`;

describe('validateSchema: valid documents', () => {
  it.each<[SchemaId, string]>([
    ['kruise-rollout-v1alpha1', KRUISE_V1ALPHA1],
    ['kruise-rollout-v1beta1', KRUISE_V1BETA1],
    ['kruise-trafficrouting', TRAFFIC_ROUTING],
    ['argo-rollout', ARGO_NGINX],
    ['argo-rollout', ARGO_TEMPLATE],
    ['rollgen-config', CONFIG],
  ])('%s passes with no diagnostics', (id, text) => {
    expect(check(id, text)).toEqual([]);
  });
});

describe('validateSchema: located errors', () => {
  it('reports a typo key at the key itself', () => {
    const text = KRUISE_V1ALPHA1.replace('        pause: {}', '        puase: {}');
    const at = positionOf(text, 'puase');
    expect(check('kruise-rollout-v1alpha1', text)).toEqual([
      {
        file: FILE,
        line: at.line,
        col: at.col,
        severity: 'error',
        message: 'spec.strategy.canary.steps[0]: unknown field "puase"',
      },
    ]);
  });

  it('reports typo keys whose values are block or flow collections at the key', () => {
    const text = KRUISE_V1ALPHA1.replace('pause: {duration: 60}', 'pase: {duration: 60}').replace(
      'trafficRoutings:',
      'trafficRouting:',
    );
    const flow = positionOf(text, 'pase');
    const block = positionOf(text, 'trafficRouting:');
    expect(brief(check('kruise-rollout-v1alpha1', text))).toEqual([
      `${flow.line}:${flow.col} spec.strategy.canary.steps[1]: unknown field "pase"`,
      `${block.line}:${block.col} spec.strategy.canary: unknown field "trafficRouting"`,
    ]);
  });

  it('reports a typo key that is the first of its mapping, and one with a scalar value', () => {
    const text = ARGO_NGINX.replace('canaryService:', 'canarySevice:').replace(
      '      - setWeight: 40',
      '      - setWieght: 40',
    );
    const first = positionOf(text, 'canarySevice');
    const step = positionOf(text, 'setWieght');
    expect(brief(check('argo-rollout', text))).toEqual([
      `${first.line}:${first.col} spec.strategy.canary: unknown field "canarySevice"`,
      `${step.line}:${step.col} spec.strategy.canary.steps[2]: unknown field "setWieght"`,
    ]);
  });

  it('reports weight 150 at its line with the dotted path', () => {
    const text = KRUISE_V1ALPHA1.replace('weight: 40', 'weight: 150');
    const at = positionOf(text, '150');
    expect(brief(check('kruise-rollout-v1alpha1', text))).toEqual([
      `${at.line}:${at.col} spec.strategy.canary.steps[1].weight: must be <= 100, found 150`,
    ]);
  });

  it('accepts an Argo step with several fields: Argo refuses only two of setWeight, pause, experiment and analysis, which the normalizer refuses', () => {
    const text = ARGO_NGINX.replace('      - setWeight: 5\n', '      - setWeight: 5\n        pause: {}\n');
    expect(brief(check('argo-rollout', text))).toEqual([]);
  });

  it('reports every error of a document at once', () => {
    const text = KRUISE_V1BETA1.replace('    name: echoserver\n  strategy', '  strategy')
      .replace('traffic: 20%', 'traffic: "20"')
      .replace('      - replicas: 100%', '      - replicas: 0')
      .replace('            type: PathPrefix', '            type: Prefix')
      .replace('      failureThreshold: 10%', '      failureThreshold: 10%\n      blueGreen: {}');
    const pos = (needle: string) => positionOf(text, needle);
    const p = {
      ref: pos('apiVersion: apps/v1'),
      traffic: pos('"20"'),
      type: pos('Prefix'),
      replicas: pos('0\n      trafficRoutings'),
      blue: pos('blueGreen'),
    };
    expect(brief(check('kruise-rollout-v1beta1', text))).toEqual([
      `${p.ref.line}:${p.ref.col} spec.workloadRef: missing required field "name"`,
      `${p.type.line}:${p.type.col} spec.strategy.canary.steps[0].matches[0].path.type: must be one of "Exact", "PathPrefix", "RegularExpression"`,
      `${p.traffic.line}:${p.traffic.col} spec.strategy.canary.steps[1].traffic: must be a percentage such as "20%"`,
      `${p.replicas.line}:${p.replicas.col} spec.strategy.canary.steps[3].replicas: must be >= 1, found 0`,
      `${p.blue.line}:${p.blue.col} spec.strategy.canary: unknown field "blueGreen"`,
    ]);
  });

  it('names both alternatives when neither workloadRef nor template is set, and rejects both together', () => {
    const neither = ARGO_NGINX.replace(/ {2}workloadRef:\n(?: {4}.*\n)+/, '');
    expect(brief(check('argo-rollout', neither))).toEqual([
      `${positionOf(neither, 'replicas').line}:3 spec: must set one of "workloadRef" or "template"`,
    ]);
    const both = ARGO_TEMPLATE.replace(
      '  replicas: 4\n',
      '  replicas: 4\n  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: x}\n',
    );
    const at = positionOf(both, 'template:');
    expect(brief(check('argo-rollout', both))).toEqual([
      `${at.line}:${at.col} spec: "template" cannot be set together with "workloadRef"`,
    ]);
  });

  it('escapes map keys in paths and reports wrong types and enum values in rollgen.yaml', () => {
    const kruise = KRUISE_V1ALPHA1.replace('rolling-style: partition', 'rolling-style: 1');
    const at = positionOf(kruise, 'rolling-style: 1');
    expect(brief(check('kruise-rollout-v1alpha1', kruise))).toEqual([
      `${at.line}:${at.col + 'rolling-style: '.length} metadata.annotations["rollouts.kruise.io/rolling-style"]: must be a string, found an integer`,
    ]);
    const config = CONFIG.replace('name: web', 'name: Web_App').replace('unpaused: automatic', 'unpaused: auto');
    expect(check('rollgen-config', config).map((d) => d.message)).toEqual([
      'apps[1].name: must be a DNS-1123 label: at most 63 lower-case letters, digits or "-", starting and ending with a letter or digit',
      'apps[1].gates.unpaused: must be one of "manual", "automatic"',
    ]);
  });
});

describe('generated validators', () => {
  it('are current: recompiling the schemas gives the committed bytes', () => {
    const root = join(__dirname, '..', '..');
    const out = mkdtempSync(join(tmpdir(), 'rollgen-schemas-'));
    try {
      execFileSync(process.execPath, [join(root, 'scripts/compile-schemas.mjs'), out], { cwd: root });
      const committedDir = join(root, 'src/spec/generated');
      // generated/k8s* belongs to compile-k8s-schemas.mjs (checked in test/spec/k8s-schemas.test.ts).
      const own = (names: string[]) => names.filter((n) => !n.startsWith('k8s')).sort();
      expect(own(readdirSync(committedDir))).toEqual(own(readdirSync(out)));
      for (const name of readdirSync(out)) {
        const fresh = readFileSync(join(out, name));
        const committed = readFileSync(join(committedDir, name));
        expect({ name, current: fresh.equals(committed) }).toEqual({ name, current: true });
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
