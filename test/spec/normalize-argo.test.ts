import { unsupportedWorkload } from '../../src/spec/reader-common';
import { parseDuration } from '../../src/spec/argo';
import { providerInputs } from '../../generators/registry';
import { argoRolloutFields } from '../../src/spec/argo-fields';
import { checkFields } from '../../src/spec/field-ledger';
import { argo, argoRollout, FILE, lineOf, parseOne } from '../plan/helpers';

const ARGO_ROLLOUT_FIELDS = argoRolloutFields(providerInputs);

const istio = (routes: string[]) => `trafficRouting:
  managedRoutes:
${routes.map((r) => `  - name: ${r}`).join('\n')}
  istio:
    virtualService:
      name: echoserver-vs`;

describe('normalizeArgo: setWeight and pause', () => {
  test('GIVEN setWeight steps separated by pauses WHEN normalized THEN each setWeight is a step and each pause gates the step before it', () => {
    const text = argoRollout(`- setWeight: 20
- pause: {}
- setWeight: 40
- pause: {duration: 10m}
- setWeight: 60
- pause: {duration: 45}
- setWeight: 80
- pause: {duration: "30s"}
- setWeight: 90
- pause: {duration: 1h}`);
    const { rollout, diagnostics } = argo(text);
    expect(diagnostics).toEqual([]);
    expect(rollout.format).toBe('argo');
    expect(rollout.steps.map((s) => s.weight)).toEqual([20, 40, 60, 80, 90]);
    expect(rollout.steps.map((s) => s.pause)).toEqual([
      { kind: 'manual' },
      { kind: 'timed', seconds: 600 },
      { kind: 'timed', seconds: 45 },
      { kind: 'timed', seconds: 30 },
      { kind: 'timed', seconds: 3600 },
    ]);
    expect(rollout.steps.map((s) => s.origin.line)).toEqual([
      lineOf(text, 'setWeight: 20'),
      lineOf(text, 'setWeight: 40'),
      lineOf(text, 'setWeight: 60'),
      lineOf(text, 'setWeight: 80'),
      lineOf(text, 'setWeight: 90'),
    ]);
    expect(rollout.steps.every((s) => s.replicas === undefined)).toBe(true);
  });

  test('GIVEN consecutive actions without a pause WHEN normalized THEN their pause kind is none (automatic gate)', () => {
    const { rollout } = argo(argoRollout(`- setWeight: 10\n- setWeight: 20\n- setWeight: 30\n- pause: {}`));
    expect(rollout.steps.map((s) => s.pause.kind)).toEqual(['none', 'none', 'manual']);
  });

  test('GIVEN a leading timed pause WHEN normalized THEN it holds the start (a person starts the rollout), warned at it; no step is created for it', () => {
    const text = argoRollout(`- pause: {duration: 30}\n- setWeight: 20`);
    const { rollout, diagnostics } = argo(text);
    expect(rollout.steps).toHaveLength(1);
    expect(rollout.steps[0].pause).toEqual({ kind: 'none' });
    expect(rollout.startHold).toEqual({ kind: 'timed', seconds: 30 });
    expect(diagnostics).toEqual([
      {
        file: FILE,
        line: lineOf(text, 'pause: {duration: 30}'),
        col: expect.any(Number),
        message:
          'a pause of 30s before the first step: Argo waits that long once the new version appears; rollgen cannot count from there, so a person starts the rollout (step 1 waits for a manual gate)',
        severity: 'warning',
      },
    ]);
  });

  test('GIVEN setWeight 0 WHEN normalized THEN a step with weight 0', () => {
    const { rollout } = argo(argoRollout(`- setWeight: 0`));
    expect(rollout.steps[0].weight).toBe(0);
  });

  test('GIVEN parseDuration WHEN given ints and s/m/h strings THEN seconds; otherwise undefined', () => {
    expect([
      parseDuration(90),
      parseDuration('90'),
      parseDuration('90s'),
      parseDuration('10m'),
      parseDuration('2h'),
    ]).toEqual([90, 90, 90, 600, 7200]);
    expect([parseDuration('1d'), parseDuration('1m30s'), parseDuration(undefined)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('normalizeArgo: setCanaryScale', () => {
  test('GIVEN setCanaryScale replicas, weight and matchTrafficWeight WHEN normalized THEN the scale carries over until matchTrafficWeight resets it', () => {
    const { rollout } = argo(
      argoRollout(`- setCanaryScale: {replicas: 3}
- setWeight: 20
- setCanaryScale: {weight: 25}
- setWeight: 40
- setCanaryScale: {matchTrafficWeight: true}
- setWeight: 60`),
    );
    expect(rollout.steps.map((s) => [s.weight, s.replicas])).toEqual([
      [0, { count: 3 }],
      [20, { count: 3 }],
      [20, { percent: 25 }],
      [40, { percent: 25 }],
      [40, undefined],
      [60, undefined],
    ]);
  });
});

describe('normalizeArgo: setHeaderRoute', () => {
  test('GIVEN setHeaderRoute with two entries WHEN normalized THEN a named route whose entries are separate (ORed) matches', () => {
    const { rollout, diagnostics } = argo(
      argoRollout(
        `- setWeight: 10
- setHeaderRoute:
    name: hdr-1
    match:
    - headerName: X-Canary
      headerValue: {exact: "yes"}
    - headerName: User-Agent
      headerValue: {regex: ".*Mobile.*"}
    - headerName: X-Tenant
      headerValue: {prefix: "beta-"}
- setWeight: 20`,
        { routing: istio(['hdr-1']) },
      ),
    );
    expect(diagnostics).toEqual([]);
    expect(rollout.steps).toHaveLength(3);
    expect(rollout.steps[0].headerRoutes).toEqual([]);
    const route = rollout.steps[1].headerRoutes;
    expect(route).toEqual([
      {
        name: 'hdr-1',
        matches: [
          { headers: [{ name: 'X-Canary', type: 'Exact', value: 'yes' }], queryParams: [], cookies: [] },
          {
            headers: [{ name: 'User-Agent', type: 'RegularExpression', value: '.*Mobile.*' }],
            queryParams: [],
            cookies: [],
          },
          { headers: [{ name: 'X-Tenant', type: 'Prefix', value: 'beta-' }], queryParams: [], cookies: [] },
        ],
      },
    ]);
    expect(rollout.steps[1].weight).toBe(10);
    expect(rollout.steps[2].headerRoutes.map((r) => r.name)).toEqual(['hdr-1']);
    // header routes are not Kruise matches
    expect(rollout.steps.every((s) => s.matches.length === 0)).toBe(true);
  });

  test('GIVEN setHeaderRoute without match WHEN normalized THEN the named route is removed from that step on', () => {
    const { rollout } = argo(
      argoRollout(
        `- setHeaderRoute:
    name: hdr-1
    match:
    - headerName: X-Canary
      headerValue: {exact: "yes"}
- setHeaderRoute:
    name: hdr-1
- setWeight: 50`,
        { routing: istio(['hdr-1']) },
      ),
    );
    expect(rollout.steps.map((s) => s.headerRoutes.map((r) => r.name))).toEqual([['hdr-1'], [], []]);
  });
});

describe('normalizeArgo: setMirrorRoute', () => {
  test('GIVEN setMirrorRoute without percentage WHEN normalized THEN percentage 100 and matches with method, path and headers ANDed', () => {
    const { rollout } = argo(
      argoRollout(
        `- setMirrorRoute:
    name: mirror-1
    match:
    - method: {exact: GET}
      path: {prefix: /api}
      headers:
        agent-1b: {regex: "firefox.*"}
    - path: {exact: /health}`,
        { routing: istio(['mirror-1']) },
      ),
    );
    expect(rollout.steps[0].mirrorRoutes).toEqual([
      {
        name: 'mirror-1',
        percentage: 100,
        matches: [
          {
            headers: [{ name: 'agent-1b', type: 'RegularExpression', value: 'firefox.*' }],
            queryParams: [],
            cookies: [],
            path: { type: 'PathPrefix', value: '/api' },
            method: { type: 'Exact', value: 'GET' },
          },
          { headers: [], queryParams: [], cookies: [], path: { type: 'Exact', value: '/health' } },
        ],
      },
    ]);
  });

  test('GIVEN setMirrorRoute with percentage 35 and a later removal WHEN normalized THEN 35 then gone', () => {
    const { rollout } = argo(
      argoRollout(
        `- setMirrorRoute:
    name: mirror-1
    percentage: 35
    match:
    - method: {exact: POST}
- setMirrorRoute:
    name: mirror-1`,
        { routing: istio(['mirror-1']) },
      ),
    );
    expect(rollout.steps[0].mirrorRoutes.map((m) => m.percentage)).toEqual([35]);
    expect(rollout.steps[1].mirrorRoutes).toEqual([]);
  });
});

describe('normalizeArgo: managedRoutes order', () => {
  test('GIVEN routes set in the reverse of managedRoutes order WHEN normalized THEN each step lists them in managedRoutes order', () => {
    const { rollout } = argo(
      argoRollout(
        `- setHeaderRoute:
    name: hdr-b
    match:
    - headerName: x-b
      headerValue: {exact: "1"}
- setHeaderRoute:
    name: hdr-a
    match:
    - headerName: x-a
      headerValue: {exact: "1"}
- setMirrorRoute:
    name: mirror-b
    match:
    - method: {exact: GET}
- setMirrorRoute:
    name: mirror-a
    match:
    - method: {exact: GET}`,
        { routing: istio(['hdr-a', 'mirror-a', 'hdr-b', 'mirror-b']) },
      ),
    );
    expect(rollout.traffic.managedRoutes).toEqual(['hdr-a', 'mirror-a', 'hdr-b', 'mirror-b']);
    const last = rollout.steps[3];
    expect(last.headerRoutes.map((r) => r.name)).toEqual(['hdr-a', 'hdr-b']);
    expect(last.mirrorRoutes.map((r) => r.name)).toEqual(['mirror-a', 'mirror-b']);
  });
});

describe('normalizeArgo: analysis and other non-routing steps', () => {
  test('GIVEN an analysis step WHEN normalized THEN it gates the previous step, like a following pause; the ledger says nothing', () => {
    const text = argoRollout(`- setWeight: 20
- analysis:
    templates:
    - templateName: success-rate
- pause: {duration: 60}
- setWeight: 40`);
    const { rollout, diagnostics } = argo(text);
    expect(rollout.steps.map((s) => s.weight)).toEqual([20, 40]);
    expect(rollout.steps[0].pause).toEqual({ kind: 'timed', seconds: 60 });
    expect(rollout.steps[0].analyses?.map((a) => a.templates.map((t) => t.templateName))).toEqual([['success-rate']]);
    expect(rollout.steps[1].analyses).toBeUndefined();
    expect(diagnostics).toEqual([]);
    expect(checkFields(parseOne(text), ARGO_ROLLOUT_FIELDS)).toEqual([]);
  });

  test('GIVEN an experiment step WHEN read THEN it adds no step: the step before carries it and waits its duration, and the ledger honours it', () => {
    const text = argoRollout(`- setWeight: 20\n- experiment: {duration: 1h, templates: [{name: c, specRef: canary}]}`);
    const { rollout, diagnostics } = argo(text);
    // This rollout has no canaryService: its stable Service would select the experiment's pods too.
    expect(diagnostics.map((d) => [d.severity, d.message.slice(0, 40)])).toEqual([
      ['warning', 'without a canaryService the stable Servi'],
    ]);
    expect(rollout.steps).toHaveLength(1);
    expect(rollout.steps[0].pause).toEqual({ kind: 'timed', seconds: 3600 });
    expect(rollout.steps[0].experiment).toMatchObject({
      durationSeconds: 3600,
      templates: [{ name: 'c', specRef: 'canary', replicas: 1, labels: {}, annotations: {} }],
      analyses: [],
    });
    expect(checkFields(parseOne(text), ARGO_ROLLOUT_FIELDS)).toEqual([]);
  });
});

describe('normalizeArgo: workload', () => {
  test('GIVEN workloadRef and spec.replicas WHEN normalized THEN the Deployment is referenced with replicasOverride = spec.replicas', () => {
    const { rollout, diagnostics } = argo(argoRollout(`- setWeight: 20`, { replicas: 7 }));
    expect(diagnostics).toEqual([]);
    expect(rollout.workload).toEqual({
      kind: 'Deployment',
      name: 'echoserver',
      origin: { file: expect.any(String), line: expect.any(Number), col: expect.any(Number) },
      replicasOverride: 7,
      deploymentSpec: {},
    });
  });

  test('GIVEN workloadRef without spec.replicas WHEN normalized THEN replicasOverride is Argo default 1', () => {
    const { rollout } = argo(argoRollout(`- setWeight: 20`, { replicas: null }));
    expect(rollout.workload.replicasOverride).toBe(1);
  });

  test('GIVEN an inline template WHEN normalized THEN a Deployment named after the Rollout is synthesized with spec.replicas, selector and template', () => {
    const { rollout } = argo(`apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
  namespace: shop
  labels:
    app: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
  strategy:
    canary:
      steps:
      - setWeight: 25
`);
    expect(rollout.workload.name).toBe('web');
    expect(rollout.workload.replicasOverride).toBe(4);
    expect(rollout.workload.synthesized).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } },
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
        },
      },
    });
  });

  test('GIVEN workloadRef kind StatefulSet WHEN normalized THEN an error at the kind line', () => {
    const text = argoRollout(`- setWeight: 20`).replace('kind: Deployment', 'kind: StatefulSet');
    const { diagnostics } = argo(text);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'kind: StatefulSet'),
        severity: 'error',
        message: unsupportedWorkload('StatefulSet'),
      }),
    ]);
  });
});

describe('normalizeArgo: traffic', () => {
  test('GIVEN trafficRouting with nginx WHEN normalized THEN canary style, weightTotal 100 and a generated <stable>-canary Service', () => {
    const { rollout } = argo(argoRollout(`- setWeight: 20`));
    expect(rollout.style).toBe('canary');
    expect(rollout.traffic).toMatchObject({
      stableService: 'echoserver',
      canaryService: 'echoserver-canary',
      generateCanaryService: true,
      weightTotal: 100,
    });
  });

  test('GIVEN canaryService written by the user WHEN normalized THEN it is used and not generated', () => {
    const { rollout } = argo(
      argoRollout(`- setWeight: 20`).replace(
        'stableService: echoserver',
        'stableService: echoserver\n      canaryService: echoserver-preview',
      ),
    );
    expect(rollout.traffic).toMatchObject({
      stableService: 'echoserver',
      canaryService: 'echoserver-preview',
      generateCanaryService: false,
    });
  });

  test('GIVEN canaryService equal to stableService WHEN normalized THEN an error at canaryService (traffic would follow pod counts)', () => {
    const text = argoRollout(`- setWeight: 20`).replace(
      'stableService: echoserver',
      'stableService: echoserver\n      canaryService: echoserver',
    );
    const { diagnostics } = argo(text);
    expect(diagnostics.map((d) => [d.line, d.severity, d.message])).toEqual([
      [
        lineOf(text, 'canaryService'),
        'error',
        'canaryService and stableService are both "echoserver"; name a second Service for the canary (Argo refuses this too)',
      ],
    ]);
  });

  test('GIVEN no trafficRouting WHEN normalized THEN partition style (basic canary) and no providers', () => {
    const { rollout } = argo(argoRollout(`- setWeight: 20`, { routing: null }));
    expect(rollout.style).toBe('partition');
    expect(rollout.traffic.providers).toEqual([]);
  });

  test('GIVEN maxTrafficWeight 1000 WHEN normalized THEN weightTotal 1000 and step weights stay in those units', () => {
    const { rollout } = argo(
      argoRollout(`- setWeight: 250`, {
        routing: `trafficRouting:\n  maxTrafficWeight: 1000\n  nginx:\n    stableIngress: echoserver`,
      }),
    );
    expect(rollout.traffic.weightTotal).toBe(1000);
    expect(rollout.steps[0].weight).toBe(250);
  });

  test('GIVEN nginx stableIngress WHEN normalized THEN provider ingress-nginx with ingresses [stableIngress], located at nginx:', () => {
    const text = argoRollout(`- setWeight: 20`);
    const { rollout } = argo(text);
    expect(rollout.traffic.providers).toEqual([
      {
        provider: 'ingress-nginx',
        origin: expect.objectContaining({ line: lineOf(text, 'stableIngress: echoserver') }),
        options: { ingresses: ['echoserver'], additionalIngressAnnotations: {}, canaryIngressAnnotations: {} },
        locate: expect.any(Function),
      },
    ]);
    // An option field is located where it is written, so a check of it points there.
    expect(rollout.traffic.providers[0].locate?.(['stableIngress']).line).toBe(
      lineOf(text, 'stableIngress: echoserver'),
    );
  });

  test('GIVEN nginx stableIngresses, annotationPrefix and annotations WHEN normalized THEN all are mapped to the generator options', () => {
    const { rollout } = argo(
      argoRollout(`- setWeight: 20`, {
        routing: `trafficRouting:
  nginx:
    stableIngresses: [echo-a, echo-b]
    annotationPrefix: custom.nginx.org
    additionalIngressAnnotations:
      canary-by-header: X-Canary
    canaryIngressAnnotations:
      my-org/team: edge`,
      }),
    );
    expect(rollout.traffic.providers.map((p) => p.options)).toEqual([
      {
        ingresses: ['echo-a', 'echo-b'],
        annotationPrefix: 'custom.nginx.org',
        additionalIngressAnnotations: { 'canary-by-header': 'X-Canary' },
        canaryIngressAnnotations: { 'my-org/team': 'edge' },
      },
    ]);
  });

  test('GIVEN canaryMetadata and stableMetadata WHEN normalized THEN they become the pod metadata patches', () => {
    const { rollout } = argo(
      argoRollout(`- setWeight: 20`, {
        canaryExtra: `canaryMetadata:
  labels: {role: canary}
stableMetadata:
  annotations: {role: stable}`,
      }),
    );
    expect(rollout.canaryPodMetadata).toEqual({ labels: { role: 'canary' }, annotations: {} });
    expect(rollout.stablePodMetadata).toEqual({ labels: {}, annotations: { role: 'stable' } });
  });
});
