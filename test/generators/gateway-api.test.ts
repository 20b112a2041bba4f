import * as fs from 'fs';
import * as path from 'path';
import { check, claims } from '../../generators/gateway-api/check';
import type { GatewayOptions } from '../../generators/gateway-api/options';
import { render, unsupportedFeatures } from '../../generators/gateway-api/render';
import type { GeneratorContext } from '../../src/contract/generator';
import { cloneJson, KubeObject } from '../../src/model/kube';
import { providerInputs } from '../../generators/registry';
import { providersFromArgo } from '../../src/spec/providers';
import type { RolloutSpec, StepSpec } from '../../src/model/rollout';
import {
  lineOf,
  match,
  optionsOrigin,
  soloContext,
  sourceResources,
  traffic,
  vm,
  webRollout,
} from '../helpers/generator-context';
import { validateAgainstSchemas } from '../helpers/schema';

const ROUTE_FILE = 'apps/web/route.yaml';
const at = (line: number) => lineOf(ROUTE_FILE, line);

type Json = Record<string, unknown>;
const ref = (name: string, extra: Json = {}): Json => ({ name, port: 80, ...extra });

/** A route with a user rule (stable + a fixed-share legacy backend), a rule for another Service and timeouts. */
const route: KubeObject = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'web', namespace: 'shop', labels: { team: 'a' } },
  spec: {
    parentRefs: [{ name: 'public' }],
    hostnames: ['web.example.com'],
    rules: [
      {
        matches: [{ path: { type: 'PathPrefix', value: '/' } }],
        timeouts: { request: '5s' },
        backendRefs: [ref('web')],
      },
      { matches: [{ path: { type: 'PathPrefix', value: '/api' } }], backendRefs: [ref('api')] },
    ],
  },
};

const rollout = (steps: StepSpec[] = [], format: RolloutSpec['format'] = 'kruise-v1beta1'): RolloutSpec =>
  webRollout({ format, steps }, { managedRoutes: ['mirror', 'beta'] });

const defaults: GatewayOptions = { httpRoutes: ['web'], useHeaderRoutes: ['web'], unsupported: [] };

function ctx(
  options: Partial<GatewayOptions> = {},
  objects: KubeObject[] = [route],
  steps: StepSpec[] = [],
  stableService = 'web',
): GeneratorContext<GatewayOptions> {
  const resources = sourceResources(ROUTE_FILE, objects);
  return soloContext({
    app: 'web',
    rollout: rollout(steps),
    options: { ...defaults, ...options },
    optionsOrigin,
    resources,
    stableService,
    canaryService: `${stableService}-canary`,
  });
}

const rulesOf = (o: KubeObject): Json[] => (o.spec as { rules: Json[] }).rules;
const one = (objects: readonly KubeObject[]): KubeObject => {
  expect(objects).toHaveLength(1);
  return objects[0]!;
};

describe('render: weights', () => {
  test('GIVEN 30% WHEN rendered THEN the canary ref sits beside the stable ref with 70/30 and other fields stay', () => {
    const rules = rulesOf(one(render(ctx(), traffic({ weight: 30 }))));
    expect(rules[0]).toEqual({
      matches: [{ path: { type: 'PathPrefix', value: '/' } }],
      timeouts: { request: '5s' },
      backendRefs: [ref('web', { weight: 70 }), ref('web-canary', { weight: 30 })],
    });
    expect(rules[1]).toEqual((route.spec as { rules: Json[] }).rules[1]);
  });

  test('GIVEN another weighted backend WHEN 20% THEN only the stable share splits and the other keeps its share', () => {
    const r = cloneJson(route) as KubeObject & { spec: { rules: Json[] } };
    r.spec.rules[0].backendRefs = [ref('web', { weight: 3 }), ref('legacy')];
    const refs = rulesOf(one(render(ctx({}, [r]), traffic({ weight: 20 }))))[0].backendRefs as Json[];
    const weight = (n: string) => refs.find((x) => x.name === n)!.weight as number;
    const total = refs.reduce((s, x) => s + (x.weight as number), 0);
    expect(weight('legacy') / total).toBeCloseTo(1 / 4, 9);
    expect(weight('web-canary') / total).toBeCloseTo((3 / 4) * 0.2, 9);
    expect(weight('web') / total).toBeCloseTo((3 / 4) * 0.8, 9);
  });

  test('GIVEN a user-written canary ref WHEN stable only THEN it gets weight 0 and nothing else changes', () => {
    const r = cloneJson(route) as KubeObject & { spec: { rules: Json[] } };
    r.spec.rules[0].backendRefs = [ref('web'), ref('web-canary')];
    const out = one(render(ctx({}, [r]), traffic()));
    expect(rulesOf(out)[0].backendRefs).toEqual([ref('web'), ref('web-canary', { weight: 0 })]);
    expect({ ...out, spec: { ...(out.spec as Json), rules: rulesOf(out).slice(1) } }).toEqual({
      ...r,
      spec: { ...r.spec, rules: r.spec.rules.slice(1) },
    });
  });

  test('GIVEN the stable-only state THEN the route is returned exactly as in the source', () => {
    expect(one(render(ctx(), traffic()))).toEqual(route);
  });

  test('GIVEN a backendRef without kind or group THEN it counts as the stable Service; another kind does not', () => {
    const r = cloneJson(route) as KubeObject & { spec: { rules: Json[] } };
    r.spec.rules[1].backendRefs = [{ kind: 'ServiceImport', group: 'multicluster.x-k8s.io', name: 'web', port: 80 }];
    const rules = rulesOf(one(render(ctx({}, [r]), traffic({ weight: 10 }))));
    expect((rules[0].backendRefs as Json[]).map((x) => x.name)).toEqual(['web', 'web-canary']);
    expect(rules[1].backendRefs).toEqual(r.spec.rules[1].backendRefs);
  });

  test('GIVEN requestHeaderModifier WHEN weighted THEN the canary ref carries a RequestHeaderModifier filter', () => {
    const modifier = { set: [{ name: 'x-canary', value: '1' }], add: [], remove: ['x-debug'] };
    const refs = rulesOf(one(render(ctx(), traffic({ weight: 10, requestHeaderModifier: modifier }))))[0]
      .backendRefs as Json[];
    expect(refs[1].filters).toEqual([
      {
        type: 'RequestHeaderModifier',
        requestHeaderModifier: { set: [{ name: 'x-canary', value: '1' }], remove: ['x-debug'] },
      },
    ]);
    expect(refs[0].filters).toBeUndefined();
  });

  test('GIVEN the Argo in-progress label WHEN weight > 0 THEN the route gets it, and not at weight 0', () => {
    const label = { key: 'rollouts.argoproj.io/gatewayapi-canary', value: 'in-progress' };
    expect(one(render(ctx({ inProgressLabel: label }), traffic({ weight: 5 }))).metadata.labels).toEqual({
      team: 'a',
      [label.key]: label.value,
    });
    expect(
      one(render(ctx({ inProgressLabel: label }), traffic({ matches: [match({ headers: [vm('x', '1')] })] }))).metadata
        .labels,
    ).toEqual({ team: 'a' });
  });
});

describe('render: canary rules', () => {
  test('GIVEN header OR query matches WHEN rendered THEN one canary rule first, crossing the rule matches, to the canary only', () => {
    const t = traffic({
      matches: [match({ headers: [vm('x-env', 'canary')] }), match({ queryParams: [vm('beta', '^1', 'Prefix')] })],
    });
    const rules = rulesOf(one(render(ctx(), t)));
    expect(rules).toHaveLength(3);
    expect(rules[0]).toEqual({
      matches: [
        { path: { type: 'PathPrefix', value: '/' }, headers: [{ type: 'Exact', name: 'x-env', value: 'canary' }] },
        {
          path: { type: 'PathPrefix', value: '/' },
          queryParams: [{ type: 'RegularExpression', name: 'beta', value: '^\\^1.*' }],
        },
      ],
      backendRefs: [ref('web-canary')],
      timeouts: { request: '5s' },
    });
    expect(rules.slice(1)).toEqual((route.spec as { rules: Json[] }).rules);
  });

  test('GIVEN a path match THEN it stands alone, once, for the first stable rule', () => {
    const r = cloneJson(route) as KubeObject & { spec: { rules: Json[] } };
    r.spec.rules.push({ matches: [{ path: { type: 'Exact', value: '/x' } }], backendRefs: [ref('web')] });
    const t = traffic({
      matches: [
        match({ path: { type: 'PathPrefix', value: '/v2' }, headers: [vm('a', '1')] }),
        match({ headers: [vm('b', '2')] }),
      ],
    });
    const rules = rulesOf(one(render(ctx({}, [r]), t)));
    expect(rules[0].matches).toEqual([
      { path: { type: 'PathPrefix', value: '/v2' }, headers: [{ type: 'Exact', name: 'a', value: '1' }] },
      { path: { type: 'PathPrefix', value: '/' }, headers: [{ type: 'Exact', name: 'b', value: '2' }] },
    ]);
    expect(rules[1].matches).toEqual([
      { path: { type: 'Exact', value: '/x' }, headers: [{ type: 'Exact', name: 'b', value: '2' }] },
    ]);
  });

  test('GIVEN a mirror route at 35% THEN a rule with the step backends and a RequestMirror filter to the canary; 100% omits percent', () => {
    const mirror = { name: 'mirror', percentage: 35, matches: [match({ method: { type: 'Exact', value: 'GET' } })] };
    const rules = rulesOf(one(render(ctx(), traffic({ weight: 10, mirrorRoutes: [mirror] }))));
    expect(rules[0]).toMatchObject({
      matches: [{ path: { type: 'PathPrefix', value: '/' }, method: 'GET' }],
      filters: [{ type: 'RequestMirror', requestMirror: { backendRef: ref('web-canary'), percent: 35 } }],
      backendRefs: [ref('web', { weight: 90 }), ref('web-canary', { weight: 10 })],
    });
    const full = rulesOf(one(render(ctx(), traffic({ mirrorRoutes: [{ ...mirror, percentage: 100 }] }))));
    expect(full[0].filters).toEqual([{ type: 'RequestMirror', requestMirror: { backendRef: ref('web-canary') } }]);
  });

  test('GIVEN header and mirror routes THEN their rules follow managedRoutes order, and only on useHeaderRoutes routes', () => {
    const t = traffic({
      headerRoutes: [{ name: 'beta', matches: [match({ headers: [vm('x-beta', '1')] })] }],
      mirrorRoutes: [
        { name: 'mirror', percentage: 50, matches: [match({ method: { type: 'Exact', value: 'POST' } })] },
      ],
    });
    const rules = rulesOf(one(render(ctx(), t)));
    expect(rules.map((r) => (r.filters ? 'mirror' : (r.backendRefs as Json[])[0].name))).toEqual([
      'mirror',
      'web-canary',
      'web',
      'api',
    ]);
    expect(() => render(ctx({ useHeaderRoutes: [] }), t)).toThrow(/useHeaderRoutes/);
  });

  test('GIVEN a named rule THEN its copies get unique names', () => {
    const r = cloneJson(route) as KubeObject & { spec: { rules: Json[] } };
    r.spec.rules[0].name = 'main';
    const t = traffic({ headerRoutes: [{ name: 'beta', matches: [match({ headers: [vm('x-beta', '1')] })] }] });
    expect(rulesOf(one(render(ctx({}, [r]), t))).map((x) => x.name)).toEqual(['main-beta', 'main', undefined]);
  });
});

describe('what an HTTPRoute cannot express', () => {
  test.each([
    ['cookie', traffic({ matches: [match({ cookies: [vm('beta', 'always')] })] }), /cookie "beta"/],
    ['empty match', traffic({ matches: [match({})] }), /no condition/],
    [
      'repeated header',
      traffic({ matches: [match({ headers: [vm('A', '1'), vm('a', '2')] })] }),
      /header "a" appears twice/,
    ],
    ['bad method', traffic({ matches: [match({ method: { type: 'Exact', value: 'FETCH' } })] }), /method FETCH/],
    [
      'mirror over 100',
      traffic({
        mirrorRoutes: [{ name: 'm', percentage: 150, matches: [match({ method: { type: 'Exact', value: 'GET' } })] }],
      }),
      /percentage 150/,
    ],
    ['fractional weight', traffic({ weight: 2.5 }), /weight 2.5/],
  ])('%s', (_name, t, pattern) => {
    expect(unsupportedFeatures(t).join('\n')).toMatch(pattern);
    expect(() => render(ctx(), t)).toThrow(pattern);
  });

  test('GIVEN a header the rule already matches THEN check names the step', () => {
    const r = cloneJson(route) as KubeObject & { spec: { rules: Json[] } };
    r.spec.rules[0].matches = [{ headers: [{ name: 'Version', value: 'v1' }] }];
    const step: StepSpec = {
      origin: at(40),
      matches: [match({ headers: [vm('version', 'v2')] })],
      headerRoutes: [],
      mirrorRoutes: [],
      pause: { kind: 'manual' },
    };
    const d = check(ctx({}, [r], [step]));
    expect(d).toEqual([
      expect.objectContaining({
        line: 40,
        message: expect.stringMatching(
          /^app web, rollout web, step 1: provider gateway-api cannot express HTTPRoute "web": the step's matches: header "version" is already matched/,
        ),
      }),
    ]);
  });

  test('GIVEN too many rules after adding canary rules THEN check reports the Gateway API limit', () => {
    const r = cloneJson(route) as KubeObject & { spec: { rules: Json[] } };
    r.spec.rules = Array.from({ length: 9 }, (_, i) => ({
      matches: [{ path: { type: 'PathPrefix', value: `/p${i}` } }],
      backendRefs: [ref('web')],
    }));
    const step: StepSpec = {
      origin: at(40),
      matches: [match({ headers: [vm('x', '1')] })],
      headerRoutes: [],
      mirrorRoutes: [],
      pause: { kind: 'manual' },
    };
    expect(
      check(ctx({}, [r], [step]))
        .map((d) => d.message)
        .join('\n'),
    ).toMatch(/18 rules \(an HTTPRoute holds at most 16\)/);
  });
});

describe('check and claims', () => {
  test('GIVEN a missing route, unsupported plugin keys and a route without the stable Service THEN each is a located error', () => {
    const other = { ...cloneJson(route), metadata: { name: 'other', namespace: 'shop' } };
    const messages = check(
      ctx({ httpRoutes: ['nope', 'other'], useHeaderRoutes: [], unsupported: ['grpcRoute'] }, [other], [], 'shop-svc'),
    ).map((d) => `${d.file}:${d.line}: ${d.message}`);
    expect(messages).toEqual([
      expect.stringMatching(
        /^apps\/web\/rollout.yaml:12: app web, rollout web: gatewayAPI plugin option "grpcRoute" is not supported/,
      ),
      expect.stringMatching(
        /^apps\/web\/rollout.yaml:12: HTTPRoute "nope" not found in the app's manifests \(namespace shop\)/,
      ),
      expect.stringMatching(
        /^apps\/web\/route.yaml:7: HTTPRoute "other" has no rule with a backendRef to the stable Service "shop-svc"/,
      ),
    ]);
  });

  test('GIVEN a v1alpha2 route THEN it is accepted and rendered in its own version, as Kruise does', () => {
    const alpha = { ...route, apiVersion: 'gateway.networking.k8s.io/v1alpha2' };
    expect(check(ctx({}, [alpha]))).toEqual([]);
    const out = one(render(ctx({}, [alpha]), traffic({ weight: 30 })));
    expect(out.apiVersion).toBe('gateway.networking.k8s.io/v1alpha2');
    expect(rulesOf(out)[0].backendRefs).toEqual(rulesOf(one(render(ctx(), traffic({ weight: 30 }))))[0].backendRefs);
  });

  test('GIVEN a v1alpha1 route THEN it is refused naming the versions rollgen renders', () => {
    expect(check(ctx({}, [{ ...route, apiVersion: 'gateway.networking.k8s.io/v1alpha1' }]))[0]!.message).toMatch(
      /rollgen renders gateway.networking.k8s.io\/v1 or .*v1beta1 or .*v1alpha2/,
    );
  });

  test('claims: one per rule that routes to the stable Service', () => {
    expect(claims(ctx()).map((c) => c.key)).toEqual(['gateway-api:shop/web:web:0']);
  });
});

describe('Argo plugin options', () => {
  const doc = { locate: () => optionsOrigin } as never;
  const optionsOf = (plugin: Json) =>
    providersFromArgo(doc, { plugins: { 'argoproj-labs/gatewayAPI': plugin } }, [], providerInputs, [])[0]!.options;

  test('httpRoute is one route with header routes; httpRoutes keep useHeaderRoutes; unknown keys are refused by name', () => {
    expect(optionsOf({ httpRoute: 'web', namespace: 'shop' })).toEqual({
      httpRoutes: ['web'],
      useHeaderRoutes: ['web'],
      namespace: 'shop',
      inProgressLabel: { key: 'rollouts.argoproj.io/gatewayapi-canary', value: 'in-progress' },
      unsupported: [],
    });
    expect(
      optionsOf({
        httpRoutes: [{ name: 'a', useHeaderRoutes: true }, { name: 'b' }],
        disableInProgressLabel: true,
        tcpRoutes: [{ name: 't' }],
        grpcRoute: 'g',
      }),
    ).toEqual({
      httpRoutes: ['a', 'b'],
      useHeaderRoutes: ['a'],
      unsupported: ['grpcRoute', 'tcpRoutes'],
    });
  });
});

test('every rendered HTTPRoute of the golden cases validates against the published Gateway API schema', () => {
  const root = path.join(__dirname, '..', 'golden', 'gateway-api');
  const checked = fs.readdirSync(root).flatMap((c) => {
    const dir = path.join(root, c, 'expected');
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => validateAgainstSchemas(fs.readFileSync(path.join(dir, f), 'utf8')));
  });
  expect(checked.filter((c) => c.startsWith('HTTPRoute/')).length).toBeGreaterThan(10);
});
