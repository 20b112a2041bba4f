import { render } from '../../generators/ingress-nginx/render';
import { simulate } from '../../generators/ingress-nginx/simulate';
import type { GeneratorContext, SimRequest } from '../../src/contract/generator';
import type { NginxOptions } from '../../generators/ingress-nginx/options';
import type { KubeObject } from '../../src/model/kube';
import { ResourceSet } from '../../src/model/resource-set';
import type { RolloutSpec } from '../../src/model/rollout';
import { soloContext } from '../helpers/generator-context';

const P = 'nginx.ingress.kubernetes.io';

type PathSpec = { path: string; service: string; pathType?: string };

function ingress(
  name: string,
  host: string | undefined,
  paths: PathSpec[],
  annotations?: Record<string, string>,
): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace: 'shop', ...(annotations ? { annotations } : {}) },
    spec: {
      ingressClassName: 'nginx',
      rules: [
        {
          ...(host !== undefined ? { host } : {}),
          http: {
            paths: paths.map((p) => ({
              path: p.path,
              pathType: p.pathType ?? 'Prefix',
              backend: { service: { name: p.service, port: { number: 80 } } },
            })),
          },
        },
      ],
    },
  };
}

const stable = ingress('web', 'web.example.com', [
  { path: '/', service: 'web' },
  { path: '/foo', service: 'foo' },
]);

const canary = (annotations: Record<string, string>): KubeObject =>
  ingress('web-canary', 'web.example.com', [{ path: '/', service: 'web-canary' }], {
    [`${P}/canary`]: 'true',
    ...annotations,
  });

const request = (r: Partial<SimRequest> = {}): SimRequest => ({
  host: 'web.example.com',
  path: '/',
  headers: {},
  cookies: {},
  query: {},
  ...r,
});

const stableOnly = [{ service: 'web', share: 1 }];
const canaryOnly = [{ service: 'web-canary', share: 1 }];
const twenty = [
  { service: 'web', share: 0.8 },
  { service: 'web-canary', share: 0.2 },
];

describe('ingress-nginx simulate: canary precedence', () => {
  it('splits by canary-weight', () => {
    expect(simulate([stable, canary({ [`${P}/canary-weight`]: '20' })], request())).toEqual({
      backends: twenty,
      rule: 'canary-weight 20/100',
    });
  });

  it('uses canary-weight-total', () => {
    const objects = [stable, canary({ [`${P}/canary-weight`]: '5', [`${P}/canary-weight-total`]: '1000' })];
    expect(simulate(objects, request())).toEqual({
      backends: [
        { service: 'web', share: 0.995 },
        { service: 'web-canary', share: 0.005 },
      ],
      rule: 'canary-weight 5/1000',
    });
  });

  it('counts a canary-weight-total of 100 or less as 100, as balancer.lua does', () => {
    const objects = [stable, canary({ [`${P}/canary-weight`]: '5', [`${P}/canary-weight-total`]: '10' })];
    expect(simulate(objects, request())).toEqual({
      backends: [
        { service: 'web', share: 0.95 },
        { service: 'web-canary', share: 0.05 },
      ],
      rule: 'canary-weight 5/100 (canary-weight-total 10 counts as 100: ingress-nginx reads it only above 100)',
    });
  });

  it('sends everything to stable without a canary Ingress, or with weight 0', () => {
    expect(simulate([stable], request())).toEqual({ backends: stableOnly, rule: 'no canary' });
    expect(simulate([stable, canary({})], request())).toEqual({ backends: stableOnly, rule: 'canary-weight 0/100' });
  });

  const byHeaderValue = canary({
    [`${P}/canary-by-header`]: 'x-canary',
    [`${P}/canary-by-header-value`]: 'on',
    [`${P}/canary-weight`]: '20',
  });

  it('sends an exact header hit to the canary (header names case-insensitive)', () => {
    expect(simulate([stable, byHeaderValue], request({ headers: { 'X-Canary': 'on' } }))).toEqual({
      backends: canaryOnly,
      rule: 'canary-by-header x-canary=on',
    });
  });

  it('lets a header miss fall through to the weight', () => {
    expect(simulate([stable, byHeaderValue], request({ headers: { 'x-canary': 'off' } }))).toEqual({
      backends: twenty,
      rule: 'canary-weight 20/100',
    });
    expect(simulate([stable, byHeaderValue], request({ headers: { 'x-canary': 'never' } }))?.rule).toBe(
      'canary-weight 20/100',
    );
  });

  it('honours always / never on a bare canary-by-header, even with a weight', () => {
    const objects = [stable, canary({ [`${P}/canary-by-header`]: 'x-canary', [`${P}/canary-weight`]: '100' })];
    expect(simulate(objects, request({ headers: { 'x-canary': 'never' } }))).toEqual({
      backends: stableOnly,
      rule: 'canary-by-header x-canary=never',
    });
    expect(simulate(objects, request({ headers: { 'x-canary': 'always' } }))).toEqual({
      backends: canaryOnly,
      rule: 'canary-by-header x-canary=always',
    });
    expect(simulate(objects, request({ headers: { 'x-canary': 'maybe' } }))).toEqual({
      backends: canaryOnly,
      rule: 'canary-weight 100/100',
    });
  });

  it('matches canary-by-header-pattern as a regex', () => {
    const objects = [
      stable,
      canary({
        [`${P}/canary-by-header`]: 'user-agent',
        [`${P}/canary-by-header-pattern`]: '^(pc|mac)$',
        [`${P}/canary-weight`]: '20',
      }),
    ];
    expect(simulate(objects, request({ headers: { 'User-Agent': 'mac' } }))).toEqual({
      backends: canaryOnly,
      rule: 'canary-by-header-pattern user-agent=~^(pc|mac)$',
    });
    expect(simulate(objects, request({ headers: { 'User-Agent': 'linux' } }))?.backends).toEqual(twenty);
  });

  it('routes canary-by-cookie always / never, other values fall through', () => {
    const objects = [stable, canary({ [`${P}/canary-by-cookie`]: 'beta', [`${P}/canary-weight`]: '20' })];
    expect(simulate(objects, request({ cookies: { beta: 'always' } }))).toEqual({
      backends: canaryOnly,
      rule: 'canary-by-cookie beta=always',
    });
    expect(simulate(objects, request({ cookies: { beta: 'never' } }))).toEqual({
      backends: stableOnly,
      rule: 'canary-by-cookie beta=never',
    });
    expect(simulate(objects, request({ cookies: { beta: 'yes' } }))?.backends).toEqual(twenty);
  });

  it('checks the header before the cookie', () => {
    const objects = [stable, canary({ [`${P}/canary-by-header`]: 'x-canary', [`${P}/canary-by-cookie`]: 'beta' })];
    const r = simulate(objects, request({ headers: { 'x-canary': 'never' }, cookies: { beta: 'always' } }));
    expect(r).toEqual({ backends: stableOnly, rule: 'canary-by-header x-canary=never' });
  });
});

describe('ingress-nginx simulate: host and path', () => {
  it('matches a one-label host wildcard only', () => {
    const objects = [ingress('web', '*.example.com', [{ path: '/', service: 'web' }])];
    expect(simulate(objects, request({ host: 'shop.example.com' }))?.backends).toEqual(stableOnly);
    expect(simulate(objects, request({ host: 'Shop.Example.com:8443' }))?.backends).toEqual(stableOnly);
    expect(simulate(objects, request({ host: 'a.shop.example.com' }))).toBeUndefined();
    expect(simulate(objects, request({ host: 'example.com' }))).toBeUndefined();
  });

  it('prefers an exact host over a wildcard over a rule without host', () => {
    const objects = [
      ingress('any', undefined, [{ path: '/', service: 'any' }]),
      ingress('wild', '*.example.com', [{ path: '/', service: 'wild' }]),
      ingress('web', 'web.example.com', [{ path: '/', service: 'web' }]),
    ];
    expect(simulate(objects, request())?.backends).toEqual(stableOnly);
    expect(simulate(objects, request({ host: 'api.example.com' }))?.backends).toEqual([{ service: 'wild', share: 1 }]);
    expect(simulate(objects, request({ host: 'other.org' }))?.backends).toEqual([{ service: 'any', share: 1 }]);
  });

  it('matches Prefix paths by element, longest first', () => {
    const objects = [stable, canary({ [`${P}/canary-weight`]: '20' })];
    expect(simulate(objects, request({ path: '/foo' }))).toEqual({
      backends: [{ service: 'foo', share: 1 }],
      rule: 'no canary',
    });
    expect(simulate(objects, request({ path: '/foo/bar?x=1' }))?.backends).toEqual([{ service: 'foo', share: 1 }]);
    expect(simulate(objects, request({ path: '/foobar' }))).toEqual({ backends: twenty, rule: 'canary-weight 20/100' });
  });

  it('reads ImplementationSpecific as Prefix, as ingress-nginx does (SetDefaultNGINXPathType)', () => {
    const objects = [
      ingress('web', 'web.example.com', [{ path: '/foo', service: 'foo', pathType: 'ImplementationSpecific' }]),
    ];
    expect(simulate(objects, request({ path: '/foo/bar' }))?.backends).toEqual([{ service: 'foo', share: 1 }]);
    expect(simulate(objects, request({ path: '/foobar' }))).toBeUndefined();
    expect(simulate(objects, request({ path: '/Foo' }))).toBeUndefined();
  });

  it('matches Exact paths exactly and prefers them at equal length', () => {
    const objects = [
      ingress('web', 'web.example.com', [
        { path: '/login', service: 'web' },
        { path: '/login', service: 'auth', pathType: 'Exact' },
      ]),
    ];
    expect(simulate(objects, request({ path: '/login' }))?.backends).toEqual([{ service: 'auth', share: 1 }]);
    expect(simulate(objects, request({ path: '/login/' }))?.backends).toEqual(stableOnly);
  });

  it('returns undefined when no rule matches', () => {
    expect(simulate([stable], request({ host: 'other.org' }))).toBeUndefined();
    const onlyFoo = [ingress('web', 'web.example.com', [{ path: '/foo', service: 'foo' }])];
    expect(simulate(onlyFoo, request({ path: '/bar' }))).toBeUndefined();
    expect(simulate([], request())).toBeUndefined();
  });
});

describe('ingress-nginx simulate over rendered objects', () => {
  const rollout = { name: 'web', namespace: 'shop' } as unknown as RolloutSpec;
  const origin = { file: 'x.yaml', line: 1, col: 1 };
  const ctx: GeneratorContext<NginxOptions> = soloContext({
    app: 'web',
    rollout,
    options: {
      ingresses: ['web'],
      annotationPrefix: P,
      additionalIngressAnnotations: {},
      canaryIngressAnnotations: {},
    },
    optionsOrigin: origin,
    resources: new ResourceSet([{ object: stable, origin, locate: () => origin }]),
    stableService: 'web',
    canaryService: 'web-canary',
  });
  const none = { headerRoutes: [], mirrorRoutes: [] };

  it('gives the intended split of a header + weight step', () => {
    const matches = [
      { headers: [{ name: 'x-env', type: 'Exact' as const, value: 'canary' }], queryParams: [], cookies: [] },
    ];
    const objects = [stable, ...render(ctx, { weight: 20, weightTotal: 100, matches, ...none })];
    expect(simulate(objects, request({ headers: { 'x-env': 'canary' } }))?.backends).toEqual(canaryOnly);
    expect(simulate(objects, request())?.backends).toEqual(twenty);
    expect(simulate(objects, request({ path: '/foo' }))?.backends).toEqual([{ service: 'foo', share: 1 }]);
  });

  it('routes everything to stable in the stable-only state', () => {
    const objects = [stable, ...render(ctx, { weight: 0, weightTotal: 100, matches: [], ...none })];
    expect(simulate(objects, request())).toEqual({ backends: stableOnly, rule: 'no canary' });
  });
});
