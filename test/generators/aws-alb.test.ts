import { canaryOnly, forwardAction, headerConditions, weightedGroups } from '../../generators/aws-alb/actions';
import { check, claims } from '../../generators/aws-alb/check';
import { unsupportedFeatures } from '../../generators/aws-alb/features';
import { AlbOptions, MANAGED_ANNOTATIONS } from '../../generators/aws-alb/options';
import { render } from '../../generators/aws-alb/render';
import { simulate } from '../../generators/aws-alb/simulate';
import type { GeneratorContext, SimRequest } from '../../src/contract/generator';
import type { KubeObject } from '../../src/model/kube';
import { ResourceSet } from '../../src/model/resource-set';
import { stableTraffic, TrafficState } from '../../src/model/plan';
import type { NamedRoute, RolloutSpec, ValueMatch } from '../../src/model/rollout';
import { soloContext } from '../helpers/generator-context';

const P = 'alb.ingress.kubernetes.io';
const origin = { file: 'rollout.yaml', line: 3, col: 5 };

const header = (name: string, value: string, type: ValueMatch['type'] = 'Exact'): NamedRoute['matches'][number] => ({
  headers: [{ name, type, value }],
  queryParams: [],
  cookies: [],
});
const route = (name: string, ...matches: NamedRoute['matches']): NamedRoute => ({ name, matches });
const traffic = (weight: number, headerRoutes: NamedRoute[] = []): TrafficState => ({
  ...stableTraffic(100),
  weight,
  headerRoutes,
});

function ingress(
  annotations: Record<string, string> = {},
  port: Record<string, unknown> = { name: 'use-annotation' },
): KubeObject {
  const path = (p: string, service: string, servicePort: Record<string, unknown>) => ({
    path: p,
    pathType: 'ImplementationSpecific',
    backend: { service: { name: service, port: servicePort } },
  });
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: 'shop', annotations },
    spec: {
      ingressClassName: 'alb',
      rules: [
        {
          host: 'web.example.com',
          http: { paths: [path('/admin/*', 'admin', { number: 80 }), path('/*', 'web', port)] },
        },
      ],
    },
  };
}

function ctx(
  object: KubeObject,
  options: Partial<AlbOptions> = {},
  rollout: Partial<RolloutSpec['traffic']> = {},
  name = 'web',
): GeneratorContext<AlbOptions> {
  const spec = {
    name,
    namespace: 'shop',
    steps: [],
    traffic: {
      stableService: 'web',
      canaryService: 'web-canary',
      generateCanaryService: false,
      weightTotal: 100,
      providers: [],
      managedRoutes: ['beta'],
      ...rollout,
    },
  } as unknown as RolloutSpec;
  return soloContext({
    app: 'shop',
    rollout: spec,
    options: { ingresses: ['web'], servicePort: 8080, annotationPrefix: P, ...options },
    optionsOrigin: origin,
    resources: new ResourceSet([{ object, origin, locate: () => origin }]),
    stableService: 'web',
    canaryService: 'web-canary',
  });
}

const request = (headers: Record<string, string> = {}, path = '/'): SimRequest => ({
  host: 'web.example.com',
  path,
  headers,
  cookies: {},
  query: {},
});

describe('action and condition JSON', () => {
  test('forward action: canary first, stable last, weights sum to 100, ServicePort a string, Go key order', () => {
    const json = forwardAction(weightedGroups('web-canary', 'web', 8080, 15));
    expect(json).toBe(
      '{"Type":"forward","ForwardConfig":{"TargetGroups":[{"ServiceName":"web-canary","ServicePort":"8080","Weight":15},{"ServiceName":"web","ServicePort":"8080","Weight":85}]}}',
    );
    const groups = JSON.parse(json).ForwardConfig.TargetGroups as { Weight: number; ServicePort: unknown }[];
    expect(groups.reduce((n, g) => n + g.Weight, 0)).toBe(100);
    expect(groups.every((g) => typeof g.ServicePort === 'string')).toBe(true);
  });

  test('stickiness goes after the target groups', () => {
    const json = forwardAction(canaryOnly('web-canary', 80), { enabled: true, durationSeconds: 60 });
    expect(Object.keys(JSON.parse(json).ForwardConfig)).toEqual(['TargetGroups', 'TargetGroupStickinessConfig']);
    expect(json).toContain('"TargetGroupStickinessConfig":{"Enabled":true,"DurationSeconds":60}');
  });

  test('conditions: one http-header condition per header, ORed values merged, Prefix as value*', () => {
    const json = headerConditions(
      route(
        'beta',
        header('X-Team', 'qa'),
        header('x-team', 'sre'),
        header('X-Team', 'qa'),
        header('X-Team', 'ops-', 'Prefix'),
      ),
    );
    expect(JSON.parse(json)).toEqual([
      { field: 'http-header', httpHeaderConfig: { httpHeaderName: 'X-Team', values: ['qa', 'sre', 'ops-*'] } },
    ]);
    expect(json.indexOf('"field"')).toBeLessThan(json.indexOf('"httpHeaderConfig"'));
  });
});

describe('unsupported features', () => {
  test('regex, wildcard characters in a prefix, different headers ORed and too many values are refused; exact (wildcards too) and prefix pass', () => {
    expect(
      unsupportedFeatures(traffic(10, [route('a', header('X', 'yes')), route('b', header('X', 'be', 'Prefix'))])),
    ).toEqual([]);
    expect(unsupportedFeatures(traffic(0, [route('a', header('X', '^y', 'RegularExpression'))]))[0]).toMatch(
      /not regular expressions/,
    );
    expect(unsupportedFeatures(traffic(0, [route('a', header('X', 'a?b', 'Prefix'))]))[0]).toMatch(/wildcards/);
    expect(unsupportedFeatures(traffic(0, [route('a', header('X', 'Mozilla*'))]))).toEqual([]);
    expect(unsupportedFeatures(traffic(0, [route('a', header('X', '1'), header('Y', '2'))]))[0]).toMatch(
      /different headers \(x, y\)/,
    );
    const six = route('a', ...['1', '2', '3', '4', '5', '6'].map((v) => header('X', v)));
    expect(unsupportedFeatures(traffic(0, [six]))).toEqual([expect.stringMatching(/6 header values/)]);
    expect(unsupportedFeatures(traffic(12.5))[0]).toMatch(/weight 12.5/);
  });
});

describe('render', () => {
  test('keeps user annotations and other paths, writes the action and bookkeeping, inserts route paths ahead of the action path', () => {
    const [out] = render(
      ctx(ingress({ [`${P}/scheme`]: 'internal' })),
      traffic(20, [route('beta', header('X-Beta', 'yes'))]),
    );
    const annotations = out.metadata.annotations ?? {};
    expect(annotations[`${P}/scheme`]).toBe('internal');
    expect(
      JSON.parse(annotations[`${P}/actions.web`]).ForwardConfig.TargetGroups.map((g: { Weight: number }) => g.Weight),
    ).toEqual([20, 80]);
    expect(JSON.parse(annotations[MANAGED_ANNOTATIONS])).toEqual({
      web: [`${P}/actions.beta`, `${P}/actions.web`, `${P}/conditions.beta`],
    });
    const paths = (out.spec as { rules: { http: { paths: { backend: { service: { name: string } } }[] } }[] }).rules[0]
      .http.paths;
    expect(paths.map((p) => p.backend.service.name)).toEqual(['admin', 'beta', 'web']);
  });

  test("removes what this rollout owned before (bookkeeping, managed routes) but not other rollouts' keys", () => {
    const before = render(ctx(ingress()), traffic(20, [route('beta', header('X-Beta', 'yes'))]))[0];
    const withOther = {
      ...before,
      metadata: {
        ...before.metadata,
        annotations: {
          ...before.metadata.annotations,
          [`${P}/actions.api`]: '{}',
          [MANAGED_ANNOTATIONS]: JSON.stringify({
            ...JSON.parse(before.metadata.annotations![MANAGED_ANNOTATIONS]),
            api: [`${P}/actions.api`],
            web: [`${P}/actions.beta`, `${P}/actions.old`],
          }),
        },
      },
    };
    const [after] = render(
      ctx({
        ...withOther,
        metadata: {
          ...withOther.metadata,
          annotations: { ...withOther.metadata.annotations, [`${P}/actions.old`]: '{}' },
        },
      }),
      stableTraffic(100),
    );
    const annotations = after.metadata.annotations ?? {};
    const routeKeys = Object.keys(annotations).filter((k) => k.includes('/actions.') || k.includes('/conditions.'));
    expect(routeKeys.sort()).toEqual([`${P}/actions.api`, `${P}/actions.web`]);
    expect(JSON.parse(annotations[MANAGED_ANNOTATIONS])).toEqual({
      api: [`${P}/actions.api`],
      web: [`${P}/actions.web`],
    });
    expect(JSON.stringify(after.spec)).not.toContain('"beta"');
    expect(
      JSON.parse(annotations[`${P}/actions.web`]).ForwardConfig.TargetGroups.map((g: { Weight: number }) => g.Weight),
    ).toEqual([0, 100]);
  });

  test('is deterministic and does not mutate its input', () => {
    const source = ingress({ b: '1', a: '2' });
    const copy = JSON.stringify(source);
    const t = traffic(30, [route('beta', header('X', 'y'))]);
    expect(JSON.stringify(render(ctx(source), t))).toBe(JSON.stringify(render(ctx(source), t)));
    expect(JSON.stringify(source)).toBe(copy);
  });
});

describe('check and claims', () => {
  test('an Ingress not routing to the action with use-annotation is an error naming both', () => {
    const problems = check(ctx(ingress({}, { number: 80 })));
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/routes to Service "web" on port 80; use port name "use-annotation"/),
      expect.stringMatching(/no path whose backend is Service "web" with port name "use-annotation"/),
    ]);
    expect(check(ctx(ingress()))).toEqual([]);
  });

  test('a generated canary Service, a missing Ingress and a route named like a Service are errors', () => {
    expect(check(ctx(ingress(), {}, { generateCanaryService: true }))[0].message).toMatch(/needs canaryService/);
    expect(check(ctx(ingress(), { ingresses: ['nope'] }))[0].message).toMatch(/Ingress "nope" not found/);
    expect(check(ctx(ingress(), {}, { managedRoutes: ['web-canary'] }))[0].message).toMatch(
      /managed route "web-canary"/,
    );
  });

  test('claims one key per action a rollout may own, so two rollouts on one action conflict', () => {
    const keys = claims(ctx(ingress())).map((c) => c.key);
    expect(keys).toEqual([`aws-alb:shop/web:${P}/actions.web`, `aws-alb:shop/web:${P}/actions.beta`]);
    expect(claims(ctx(ingress(), {}, {}, 'other')).map((c) => c.key)).toEqual(keys);
  });
});

describe('simulate', () => {
  test('splits by forward weight, header routes first, paths in document order', () => {
    const [out] = render(ctx(ingress()), traffic(25, [route('beta', header('X-Beta', 'ye', 'Prefix'))]));
    expect(simulate([out], request())?.backends).toEqual([
      { service: 'web-canary', share: 0.25 },
      { service: 'web', share: 0.75 },
    ]);
    expect(simulate([out], request({ 'x-beta': 'YES' }))?.backends).toEqual([{ service: 'web-canary', share: 1 }]);
    expect(simulate([out], request({ 'x-beta': 'no' }))?.backends).toHaveLength(2);
    expect(simulate([out], request({ 'x-beta': 'yes' }, '/admin/x'))?.backends).toEqual([
      { service: 'admin', share: 1 },
    ]);
    expect(simulate([out], { ...request(), host: 'other.example.com' })).toBeUndefined();
  });

  test('a use-annotation backend without its action routes nowhere', () => {
    expect(simulate([ingress()], request())).toBeUndefined();
  });
});
