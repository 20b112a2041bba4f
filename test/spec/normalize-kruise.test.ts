import { unsupportedWorkload } from '../../src/spec/reader-common';
import { FILE, kruise, kruiseV1alpha1, kruiseV1beta1, lineOf } from '../plan/helpers';

describe('normalizeKruise: v1alpha1 steps', () => {
  test('GIVEN v1alpha1 weight steps WHEN normalized THEN weight becomes the traffic share and replicas default to weight%', () => {
    const { rollout, diagnostics } = kruise(
      kruiseV1alpha1(`- weight: 5
  pause: {}
- weight: 40
  replicas: 50%
- weight: 60
  replicas: 3`),
    );
    expect(diagnostics).toEqual([]);
    expect(rollout.format).toBe('kruise-v1alpha1');
    expect(rollout.name).toBe('rollouts-demo');
    expect(rollout.workload).toEqual({
      kind: 'Deployment',
      name: 'echoserver',
      origin: { file: expect.any(String), line: expect.any(Number), col: expect.any(Number) },
    });
    expect(rollout.steps.map((s) => s.weight)).toEqual([5, 40, 60]);
    expect(rollout.steps.map((s) => s.replicas)).toEqual([{ percent: 5 }, { percent: 50 }, { count: 3 }]);
  });

  test('GIVEN a v1alpha1 step with replicas only WHEN normalized THEN it has no weight (no weighted route)', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- replicas: 2`));
    expect(rollout.steps[0].weight).toBeUndefined();
    expect(rollout.steps[0].replicas).toEqual({ count: 2 });
  });

  test('GIVEN steps WHEN normalized THEN each step origin is the line of its list item', () => {
    const text = kruiseV1alpha1(`- weight: 5
- weight: 40`);
    const { rollout } = kruise(text);
    expect(rollout.steps.map((s) => s.origin.line)).toEqual([lineOf(text, 'weight: 5'), lineOf(text, 'weight: 40')]);
    expect(rollout.steps[0].origin.file).toBe(FILE);
  });
});

describe('normalizeKruise: rolling style', () => {
  test('GIVEN v1alpha1 without rolling-style annotation WHEN normalized THEN canary style (Kruise v1alpha1 default)', () => {
    const { rollout, diagnostics } = kruise(kruiseV1alpha1(`- weight: 20`));
    expect(rollout.style).toBe('canary');
    expect(diagnostics).toEqual([]);
  });

  test('GIVEN rolling-style: partition WHEN normalized THEN partition style', () => {
    const { rollout, diagnostics } = kruise(
      kruiseV1alpha1(`- weight: 20`, { annotations: 'rollouts.kruise.io/rolling-style: partition' }),
    );
    expect(rollout.style).toBe('partition');
    expect(diagnostics).toEqual([]);
  });

  test('GIVEN rolling-style: Partition (mixed case) WHEN normalized THEN partition style, since Kruise compares case-insensitively', () => {
    const { rollout, diagnostics } = kruise(
      kruiseV1alpha1(`- weight: 20`, { annotations: 'rollouts.kruise.io/rolling-style: Partition' }),
    );
    expect(rollout.style).toBe('partition');
    expect(diagnostics).toEqual([]);
  });

  test('GIVEN rolling-style: canary WHEN normalized THEN canary style', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- weight: 20`, { annotations: 'rollouts.kruise.io/rolling-style: canary' }),
    );
    expect(rollout.style).toBe('canary');
  });

  test('GIVEN an invalid rolling-style WHEN normalized THEN an error at the annotation line names the value', () => {
    const text = kruiseV1alpha1(`- weight: 20`, { annotations: 'rollouts.kruise.io/rolling-style: bluegreen' });
    const { rollout, diagnostics } = kruise(text);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      file: FILE,
      line: lineOf(text, 'rolling-style: bluegreen'),
      severity: 'error',
      message: 'rollouts.kruise.io/rolling-style must be "canary" or "partition", not "bluegreen"',
    });
    expect(rollout.style).toBe('canary');
  });

  test('GIVEN a mistyped rollouts.kruise.io annotation WHEN normalized THEN a warning at it with the key meant; the default style runs', () => {
    const text = kruiseV1alpha1(`- weight: 20`, { annotations: 'rollouts.kruise.io/rolling-stlye: partition' });
    const { rollout, diagnostics } = kruise(text);
    expect(rollout.style).toBe('canary');
    expect(diagnostics).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'rolling-stlye'),
        severity: 'warning',
        message:
          'annotation rollouts.kruise.io/rolling-stlye is not one Kruise reads on a Rollout, so it changes nothing; did you mean rollouts.kruise.io/rolling-style?',
      }),
    ]);
  });

  test('GIVEN Kruise annotations that change nothing here (the controller hash, rollback-in-batch) or other prefixes WHEN normalized THEN no warning; an unknown key of its own is warned', () => {
    const annotations = [
      'rollouts.kruise.io/hash: abc',
      'rollouts.kruise.io/rollback-in-batch: "true"',
      'example.com/owner: team-a',
      'rollouts.kruise.io/pause: "true"',
    ].join('\n');
    const { diagnostics } = kruise(kruiseV1alpha1(`- weight: 20`, { annotations }));
    expect(diagnostics.map((d) => d.message)).toEqual([
      'annotation rollouts.kruise.io/pause is not one Kruise reads on a Rollout, so it changes nothing',
    ]);
  });

  test('GIVEN v1beta1 without enableExtraWorkloadForCanary WHEN normalized THEN partition style (v1beta1 default)', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 20%
  traffic: 20%`),
    );
    expect(rollout.format).toBe('kruise-v1beta1');
    expect(rollout.style).toBe('partition');
  });

  test('GIVEN v1beta1 enableExtraWorkloadForCanary: true WHEN normalized THEN canary style', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 20%`, { canaryExtra: 'enableExtraWorkloadForCanary: true' }));
    expect(rollout.style).toBe('canary');
  });

  test('GIVEN v1beta1 enableExtraWorkloadForCanary: false WHEN normalized THEN partition style', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 20%`, { canaryExtra: 'enableExtraWorkloadForCanary: false' }),
    );
    expect(rollout.style).toBe('partition');
  });

  test('GIVEN v1beta1 with a rolling-style annotation WHEN normalized THEN the annotation is not read (v1beta1 uses the field)', () => {
    const text = kruiseV1beta1(`- replicas: 20%`).replace(
      '  namespace: default\n',
      '  namespace: default\n  annotations:\n    rollouts.kruise.io/rolling-style: canary\n',
    );
    const { rollout, diagnostics } = kruise(text);
    expect(rollout.style).toBe('partition');
    expect(diagnostics).toEqual([]);
  });
});

describe('normalizeKruise: v1beta1 traffic', () => {
  test('GIVEN traffic "N%" strings WHEN normalized THEN weight is N and replicas are kept as written', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 1
  traffic: "5%"
- replicas: 50%
  traffic: 40%
- replicas: 100%`),
    );
    expect(rollout.steps.map((s) => s.weight)).toEqual([5, 40, undefined]);
    expect(rollout.steps.map((s) => s.replicas)).toEqual([{ count: 1 }, { percent: 50 }, { percent: 100 }]);
    expect(rollout.namespace).toBe('default');
  });

  test('GIVEN a fractional traffic percent WHEN normalized THEN it is rounded up', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 10%\n  traffic: "5.5%"`));
    expect(rollout.steps[0].weight).toBe(6);
  });
});

describe('normalizeKruise: matches', () => {
  test('GIVEN one match with a header, a query param and a path WHEN normalized THEN they are one ANDed RouteMatch', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 1
  matches:
  - headers:
    - name: user-agent
      value: pc
    queryParams:
    - name: env
      value: beta
      type: RegularExpression
    path:
      type: Exact
      value: /api`),
    );
    expect(rollout.steps[0].matches).toEqual([
      {
        headers: [{ name: 'user-agent', type: 'Exact', value: 'pc' }],
        queryParams: [{ name: 'env', type: 'RegularExpression', value: 'beta' }],
        cookies: [],
        path: { type: 'Exact', value: '/api' },
      },
    ]);
  });

  test('GIVEN two list entries WHEN normalized THEN two RouteMatches (ORed)', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- weight: 10
  matches:
  - headers:
    - name: x-a
      value: "1"
    - name: x-b
      value: "2"
  - headers:
    - name: x-c
      type: RegularExpression
      value: "c.*"`),
    );
    const matches = rollout.steps[0].matches;
    expect(matches).toHaveLength(2);
    expect(matches[0].headers.map((h) => h.name)).toEqual(['x-a', 'x-b']);
    expect(matches[1].headers).toEqual([{ name: 'x-c', type: 'RegularExpression', value: 'c.*' }]);
  });

  test('GIVEN a path without type or value WHEN normalized THEN the CRD defaults PathPrefix and / apply', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 1\n  matches:\n  - path: {}`));
    expect(rollout.steps[0].matches[0].path).toEqual({ type: 'PathPrefix', value: '/' });
  });

  test('GIVEN a header named canary-by-cookie WHEN normalized THEN it becomes a cookie match {name: <value>, value: always}', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- weight: 10
  matches:
  - headers:
    - name: canary-by-cookie
      value: beta-user`),
    );
    expect(rollout.steps[0].matches).toEqual([
      { headers: [], queryParams: [], cookies: [{ name: 'beta-user', type: 'Exact', value: 'always' }] },
    ]);
  });

  test('GIVEN a header named Canary-By-Cookie in another case WHEN normalized THEN it is still the cookie convention', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- weight: 10\n  matches:\n  - headers:\n    - name: Canary-By-Cookie\n      value: u`),
    );
    expect(rollout.steps[0].matches[0].cookies).toEqual([{ name: 'u', type: 'Exact', value: 'always' }]);
    expect(rollout.steps[0].matches[0].headers).toEqual([]);
  });

  test('GIVEN a step without matches WHEN normalized THEN matches, headerRoutes and mirrorRoutes are empty', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- weight: 10`));
    expect(rollout.steps[0]).toMatchObject({ matches: [], headerRoutes: [], mirrorRoutes: [] });
    expect(rollout.steps[0].requestHeaderModifier).toBeUndefined();
  });
});

describe('normalizeKruise: pause', () => {
  test('GIVEN pause {}, absent pause, a duration and duration 0 WHEN normalized THEN manual, none, timed N and timed 0', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- weight: 10
  pause: {}
- weight: 20
- weight: 30
  pause: {duration: 600}
- weight: 40
  pause:
    duration: 0`),
    );
    expect(rollout.steps.map((s) => s.pause)).toEqual([
      { kind: 'manual' },
      { kind: 'none' },
      { kind: 'timed', seconds: 600 },
      { kind: 'timed', seconds: 0 },
    ]);
  });
});

describe('normalizeKruise: pod metadata and request header modifier', () => {
  test('GIVEN patchPodTemplateMetadata WHEN normalized THEN canaryPodMetadata carries its labels and annotations, stable gets none', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 1`, {
        canaryExtra: `patchPodTemplateMetadata:
  labels:
    version: canary
    opentelemetry.io/name: echoserver
  annotations:
    team: edge`,
      }),
    );
    expect(rollout.canaryPodMetadata).toEqual({
      labels: { version: 'canary', 'opentelemetry.io/name': 'echoserver' },
      annotations: { team: 'edge' },
    });
    expect(rollout.stablePodMetadata).toEqual({ labels: {}, annotations: {} });
  });

  test('GIVEN no patchPodTemplateMetadata WHEN normalized THEN canaryPodMetadata is empty', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 1`));
    expect(rollout.canaryPodMetadata).toEqual({ labels: {}, annotations: {} });
  });

  test('GIVEN requestHeaderModifier WHEN normalized THEN set/add/remove are kept in order', () => {
    const { rollout } = kruise(
      kruiseV1beta1(`- replicas: 1
  matches:
  - headers:
    - name: x-canary
      value: "on"
  requestHeaderModifier:
    set:
    - name: x-env
      value: canary
    add:
    - name: x-add
      value: "1"
    remove: [x-drop]`),
    );
    expect(rollout.steps[0].requestHeaderModifier).toEqual({
      set: [{ name: 'x-env', value: 'canary' }],
      add: [{ name: 'x-add', value: '1' }],
      remove: ['x-drop'],
    });
  });
});

describe('normalizeKruise: services and shared TrafficRouting', () => {
  test('GIVEN trafficRoutings[0].service WHEN normalized THEN stable is that Service and the canary Service <svc>-canary is generated', () => {
    const { rollout } = kruise(kruiseV1alpha1(`- weight: 10`));
    expect(rollout.traffic).toMatchObject({
      stableService: 'echoserver',
      canaryService: 'echoserver-canary',
      generateCanaryService: true,
      weightTotal: 100,
      managedRoutes: [],
    });
    expect(rollout.trafficRoutingRef).toBeUndefined();
  });

  test('GIVEN the trafficrouting annotation WHEN normalized THEN trafficRoutingRef is set and canaryService == stableService (no generated canary Service)', () => {
    const { rollout, diagnostics } = kruise(
      kruiseV1alpha1(`- weight: 10`, { annotations: 'rollouts.kruise.io/trafficrouting: mall-tr' }),
    );
    expect(diagnostics).toEqual([]);
    expect(rollout.trafficRoutingRef).toBe('mall-tr');
    expect(rollout.traffic.stableService).toBe('echoserver');
    expect(rollout.traffic.canaryService).toBe('echoserver');
    expect(rollout.traffic.generateCanaryService).toBe(false);
  });

  test('GIVEN v1beta1 trafficRoutingRef WHEN normalized THEN trafficRoutingRef is set and no canary Service is generated', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 1`, { canaryExtra: 'trafficRoutingRef: mall-tr' }));
    expect(rollout.trafficRoutingRef).toBe('mall-tr');
    expect(rollout.traffic.canaryService).toBe('echoserver');
    expect(rollout.traffic.generateCanaryService).toBe(false);
  });

  test('GIVEN disableGenerateCanaryService: true WHEN normalized THEN canaryService == stableService and nothing is generated', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 1`, { canaryExtra: 'disableGenerateCanaryService: true' }));
    expect(rollout.traffic).toMatchObject({
      stableService: 'echoserver',
      canaryService: 'echoserver',
      generateCanaryService: false,
    });
    expect(rollout.trafficRoutingRef).toBeUndefined();
  });

  test('GIVEN no trafficRoutings WHEN normalized THEN no Services and no providers', () => {
    const { rollout } = kruise(kruiseV1beta1(`- replicas: 1`, { routing: null }));
    expect(rollout.traffic.stableService).toBeUndefined();
    expect(rollout.traffic.canaryService).toBeUndefined();
    expect(rollout.traffic.generateCanaryService).toBe(false);
    expect(rollout.traffic.providers).toEqual([]);
  });
});

describe('normalizeKruise: ingress classType', () => {
  const routing = (classType?: string) => `trafficRoutings:
- service: echoserver
  ingress:
${classType ? `    classType: ${classType}\n` : ''}    name: echoserver-ing`;

  test('GIVEN an ingress without classType WHEN normalized THEN provider ingress-nginx with the Ingress name, located at ingress:', () => {
    const text = kruiseV1alpha1(`- weight: 10`, { routing: routing() });
    const { rollout, diagnostics } = kruise(text);
    expect(diagnostics).toEqual([]);
    expect(rollout.traffic.providers).toHaveLength(1);
    expect(rollout.traffic.providers[0]).toMatchObject({
      provider: 'ingress-nginx',
      options: { ingresses: ['echoserver-ing'] },
    });
    expect(rollout.traffic.providers[0].origin.line).toBe(lineOf(text, 'name: echoserver-ing'));
  });

  test.each([
    ['nginx', 'ingress-nginx'],
    ['aliyun-alb', 'aliyun-alb'],
    ['higress', 'higress'],
    ['mse', 'mse'],
  ])('GIVEN classType %s WHEN normalized THEN provider %s', (classType, provider) => {
    const { rollout, diagnostics } = kruise(kruiseV1alpha1(`- weight: 10`, { routing: routing(classType) }));
    expect(diagnostics).toEqual([]);
    expect(rollout.traffic.providers.map((p) => p.provider)).toEqual([provider]);
  });

  test('GIVEN an unknown classType WHEN normalized THEN an error at the classType line and no provider', () => {
    const text = kruiseV1alpha1(`- weight: 10`, { routing: routing('traefik') });
    const { rollout, diagnostics } = kruise(text);
    expect(diagnostics).toEqual([
      {
        file: FILE,
        line: lineOf(text, 'classType: traefik'),
        col: text.split('\n')[lineOf(text, 'classType: traefik') - 1].indexOf('traefik') + 1,
        message: 'ingress classType "traefik" is unknown; use one of aliyun-alb, higress, mse, nginx',
        severity: 'error',
      },
    ]);
    expect(rollout.traffic.providers).toEqual([]);
  });

  test('GIVEN a gateway routing WHEN normalized THEN provider gateway-api with the HTTPRoute name', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- weight: 10`, {
        routing: `trafficRoutings:\n- service: echoserver\n  gateway:\n    httpRouteName: echo-route`,
      }),
    );
    expect(rollout.traffic.providers).toEqual([
      expect.objectContaining({ provider: 'gateway-api', options: { httpRoutes: ['echo-route'] } }),
    ]);
  });
});

describe('normalizeKruise: workloadRef', () => {
  test('GIVEN a workloadRef kind other than Deployment WHEN normalized THEN an error at the kind line', () => {
    const text = kruiseV1beta1(`- replicas: 1`).replace('kind: Deployment', 'kind: StatefulSet');
    const { diagnostics } = kruise(text);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'kind: StatefulSet'),
        severity: 'error',
        message: unsupportedWorkload('StatefulSet'),
      }),
    ]);
  });
});

describe('normalizeKruise: empty trafficrouting annotation', () => {
  // BUG (src/spec/kruise.ts, normalizeKruise): `routingRef !== undefined` treats an empty annotation value as a shared
  // TrafficRouting, so the canary Service is disabled (canaryService == stableService) although no trafficRoutingRef
  // is recorded. Kruise copies the annotation into trafficRoutingRef only when it is non-empty.
  test('GIVEN rollouts.kruise.io/trafficrouting: "" WHEN normalized THEN it is ignored: <svc>-canary is generated', () => {
    const { rollout } = kruise(
      kruiseV1alpha1(`- weight: 10`, { annotations: 'rollouts.kruise.io/trafficrouting: ""' }),
    );
    expect(rollout.trafficRoutingRef).toBeUndefined();
    expect(rollout.traffic.canaryService).toBe('echoserver-canary');
    expect(rollout.traffic.generateCanaryService).toBe(true);
  });
});

describe('matchesOverTraffic: Kruise match mode on Istio and Gateway API', () => {
  const { matchesOverTraffic } = jest.requireActual('../../src/spec/kruise') as typeof import('../../src/spec/kruise');
  const origin = { file: 'r.yaml', line: 9, col: 11 };
  const step = {
    origin,
    weight: 10,
    matches: [{ headers: [{ name: 'x', type: 'Exact' as const, value: '1' }], queryParams: [], cookies: [] }],
    headerRoutes: [],
    mirrorRoutes: [],
    pause: { kind: 'none' as const },
  };

  test('GIVEN istio or gateway-api WHEN a step has matches and traffic THEN traffic is dropped with a warning at the step', () => {
    for (const provider of ['istio', 'gateway-api']) {
      const out: { message: string; severity: string; line: number }[] = [];
      const [s] = matchesOverTraffic([step], [{ provider }], out as never);
      expect(s.weight).toBeUndefined();
      expect(s.matches).toEqual(step.matches);
      expect(out).toEqual([
        expect.objectContaining({
          line: 9,
          severity: 'warning',
          message: expect.stringContaining('traffic 10% is ignored because the step has matches'),
        }),
      ]);
    }
  });

  test('GIVEN an ingress provider WHEN a step has matches and traffic THEN both stay (Kruise emits both there)', () => {
    const out: unknown[] = [];
    expect(matchesOverTraffic([step], [{ provider: 'ingress-nginx' }], out as never)).toEqual([step]);
    expect(out).toEqual([]);
  });
});

describe('normalizeKruise: the partition limit', () => {
  test('GIVEN partition style with a traffic step above 50% of replicas WHEN normalized THEN warned at it (Kruise refuses it); 50% and a last replicas-only step are not', () => {
    const text = kruiseV1beta1(`- replicas: 50%
  traffic: 50%
- replicas: 60%
  traffic: 60%
- replicas: 100%`);
    const { rollout, diagnostics } = kruise(text);
    expect(rollout.style).toBe('partition');
    expect(diagnostics).toEqual([
      expect.objectContaining({
        line: lineOf(text, 'replicas: 60%'),
        severity: 'warning',
        message: expect.stringMatching(/^step 2: partition style with 60% canary replicas and traffic: Kruise refuses/),
      }),
    ]);
  });
});
