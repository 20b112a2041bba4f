import Ajv from 'ajv';
import generator, { capabilities } from '../../generators/ingress-nginx';
import { check, claims } from '../../generators/ingress-nginx/check';
import { NginxOptions, optionsSchema } from '../../generators/ingress-nginx/options';
import { render, unsupportedFeatures } from '../../generators/ingress-nginx/render';
import type { GeneratorContext } from '../../src/contract/generator';
import type { KubeObject } from '../../src/model/kube';
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

const P = 'nginx.ingress.kubernetes.io';
const INGRESS_FILE = 'apps/web/ingress.yaml';
const at = (line: number) => lineOf(INGRESS_FILE, line);

const svcPath = (path: string, service: string, port: object = { number: 80 }) => ({
  path,
  pathType: 'Prefix',
  backend: { service: { name: service, port } },
});

const stableIngress: KubeObject = {
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: {
    name: 'web',
    namespace: 'shop',
    labels: { app: 'web' },
    annotations: {
      [`${P}/rewrite-target`]: '/',
      [`${P}/canary-weight`]: '50',
      [`${P}/canary-by-header`]: 'x-old',
      'cert-manager.io/cluster-issuer': 'letsencrypt',
    },
  },
  spec: {
    ingressClassName: 'nginx',
    tls: [{ hosts: ['web.example.com'], secretName: 'web-tls' }],
    defaultBackend: { service: { name: 'web', port: { number: 80 } } },
    rules: [
      { host: 'web.example.com', http: { paths: [svcPath('/', 'web'), svcPath('/api', 'api', { number: 8080 })] } },
      { host: 'admin.example.com', http: { paths: [svcPath('/', 'admin')] } },
      { http: { paths: [svcPath('/shop', 'web', { name: 'http' })] } },
    ],
  },
};

const defaultOptions: NginxOptions = {
  ingresses: ['web'],
  annotationPrefix: P,
  additionalIngressAnnotations: {},
  canaryIngressAnnotations: {},
};

function ctx(
  options: Partial<NginxOptions> = {},
  objects: KubeObject[] = [stableIngress],
): GeneratorContext<NginxOptions> {
  return soloContext({
    app: 'web',
    rollout: webRollout(),
    options: { ...defaultOptions, ...options },
    optionsOrigin,
    resources: sourceResources(INGRESS_FILE, objects),
    stableService: 'web',
    canaryService: 'web-canary',
  });
}

const expectedSpec = {
  ingressClassName: 'nginx',
  tls: [{ hosts: ['web.example.com'], secretName: 'web-tls' }],
  rules: [
    { host: 'web.example.com', http: { paths: [svcPath('/', 'web-canary')] } },
    { http: { paths: [svcPath('/shop', 'web-canary', { name: 'http' })] } },
  ],
};

function annotationsOf(objects: readonly KubeObject[]): Readonly<Record<string, string>> {
  expect(objects).toHaveLength(1);
  return objects[0]!.metadata.annotations ?? {};
}

describe('ingress-nginx render', () => {
  it('renders <ingress>-canary for a weight step', () => {
    const out = render(ctx(), traffic({ weight: 20 }));
    expect(out).toEqual([
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: {
          name: 'web-canary',
          namespace: 'shop',
          labels: { app: 'web' },
          annotations: {
            'cert-manager.io/cluster-issuer': 'letsencrypt',
            [`${P}/canary`]: 'true',
            [`${P}/canary-weight`]: '20',
            [`${P}/rewrite-target`]: '/',
          },
        },
        spec: expectedSpec,
      },
    ]);
  });

  it('adds canary-by-header and -value next to the weight', () => {
    const a = annotationsOf(
      render(ctx(), traffic({ weight: 30, matches: [match({ headers: [vm('x-env', 'canary')] })] })),
    );
    expect(a[`${P}/canary-weight`]).toBe('30');
    expect(a[`${P}/canary-by-header`]).toBe('x-env');
    expect(a[`${P}/canary-by-header-value`]).toBe('canary');
    expect(a[`${P}/canary-by-header-pattern`]).toBeUndefined();
  });

  it('writes a regex header as canary-by-header-pattern and no weight when weight is 0', () => {
    const a = annotationsOf(
      render(ctx(), traffic({ matches: [match({ headers: [vm('user-agent', '.*pc', 'RegularExpression')] })] })),
    );
    expect(a[`${P}/canary-by-header`]).toBe('user-agent');
    expect(a[`${P}/canary-by-header-pattern`]).toBe('.*pc');
    expect(a[`${P}/canary-by-header-value`]).toBeUndefined();
    expect(a[`${P}/canary-weight`]).toBeUndefined();
    expect(a[`${P}/canary`]).toBe('true');
  });

  it('writes a cookie match as canary-by-cookie, alongside one header match', () => {
    const matches = [match({ headers: [vm('user_id', '123456')] }), match({ cookies: [vm('beta', 'always')] })];
    const a = annotationsOf(render(ctx(), traffic({ matches })));
    expect(a[`${P}/canary-by-cookie`]).toBe('beta');
    expect(a[`${P}/canary-by-header`]).toBe('user_id');
    expect(a[`${P}/canary-by-header-value`]).toBe('123456');
  });

  it('writes canary-weight-total only when the total is not 100', () => {
    const fine = annotationsOf(render(ctx(), traffic({ weight: 5, weightTotal: 1000 })));
    expect(fine[`${P}/canary-weight`]).toBe('5');
    expect(fine[`${P}/canary-weight-total`]).toBe('1000');
    const plain = annotationsOf(render(ctx(), traffic({ weight: 5 })));
    expect(plain[`${P}/canary-weight-total`]).toBeUndefined();
  });

  it('renders nothing in the stable-only state', () => {
    expect(render(ctx(), traffic())).toEqual([]);
    expect(render(ctx(), traffic({ weightTotal: 1000 }))).toEqual([]);
  });

  it('copies class and tls, drops defaultBackend and paths of other Services, keeps hosts', () => {
    const [canary] = render(ctx(), traffic({ weight: 1 }));
    expect(canary!.spec).toEqual(expectedSpec);
    expect(JSON.stringify(canary)).not.toContain('admin');
    expect(JSON.stringify(canary)).not.toContain('"api"');
  });

  it("does not copy the stable Ingress's canary annotations", () => {
    const a = annotationsOf(render(ctx(), traffic({ matches: [match({ cookies: [vm('beta', 'always')] })] })));
    expect(a[`${P}/canary-weight`]).toBeUndefined();
    expect(a[`${P}/canary-by-header`]).toBeUndefined();
    expect(a[`${P}/rewrite-target`]).toBe('/');
  });

  it('applies additional annotations with the prefix, canary annotations after them, step keys last', () => {
    const options = {
      additionalIngressAnnotations: {
        'canary-by-header': 'X-Canary',
        'load-balance': 'ewma',
        'example.com/team': 'a',
        'canary-weight': '99',
      },
      canaryIngressAnnotations: { [`${P}/load-balance`]: 'round_robin' },
    };
    const a = annotationsOf(render(ctx(options), traffic({ weight: 10 })));
    expect(a[`${P}/canary-by-header`]).toBe('X-Canary');
    expect(a[`${P}/load-balance`]).toBe('round_robin');
    expect(a['example.com/team']).toBe('a');
    expect(a[`${P}/canary-weight`]).toBe('10');
  });

  it('uses a custom annotation prefix', () => {
    const a = annotationsOf(render(ctx({ annotationPrefix: 'custom.io' }), traffic({ weight: 10 })));
    expect(a['custom.io/canary']).toBe('true');
    expect(a['custom.io/canary-weight']).toBe('10');
    expect(a[`${P}/canary-weight`]).toBe('50');
  });

  it('renders one canary per listed Ingress and leaves its inputs unchanged', () => {
    const other: KubeObject = { ...stableIngress, metadata: { name: 'web-internal', namespace: 'shop' } };
    const before = JSON.stringify([stableIngress, other]);
    const out = render(ctx({ ingresses: ['web', 'web-internal'] }, [stableIngress, other]), traffic({ weight: 20 }));
    expect(out.map((o) => o.metadata.name)).toEqual(['web-canary', 'web-internal-canary']);
    expect(out[1]!.metadata.labels).toBeUndefined();
    expect(JSON.stringify([stableIngress, other])).toBe(before);
  });

  it('refuses to render a state it cannot express', () => {
    const matches = [match({ headers: [vm('a', '1'), vm('b', '2')] })];
    expect(() => render(ctx(), traffic({ matches }))).toThrow(/ANDs 2 conditions/);
  });
});

describe('ingress-nginx unsupportedFeatures', () => {
  it('accepts weight, one header and one cookie', () => {
    const matches = [match({ headers: [vm('x', '1')] }), match({ cookies: [vm('c', 'always')] })];
    expect(unsupportedFeatures(traffic({ weight: 20, matches }))).toEqual([]);
  });

  it('rejects two ANDed headers', () => {
    expect(unsupportedFeatures(traffic({ matches: [match({ headers: [vm('a', '1'), vm('b', '2')] })] }))).toEqual([
      'match 1 ANDs 2 conditions (header a=1, header b=2); ingress-nginx cannot AND canary conditions',
    ]);
  });

  it('rejects two header matches', () => {
    const matches = [match({ headers: [vm('a', '1')] }), match({ headers: [vm('b', '2')] })];
    expect(unsupportedFeatures(traffic({ matches }))).toEqual([
      '2 header matches (ingress-nginx has one canary-by-header per Ingress)',
    ]);
  });

  it('rejects a query match', () => {
    expect(unsupportedFeatures(traffic({ matches: [match({ queryParams: [vm('canary', 'yes')] })] }))).toEqual([
      'match 1: query parameter canary=yes (ingress-nginx cannot match query parameters)',
    ]);
  });

  it('rejects a path match', () => {
    expect(
      unsupportedFeatures(traffic({ matches: [match({ path: { type: 'PathPrefix', value: '/beta' } })] })),
    ).toEqual(['match 1: path PathPrefix /beta (ingress-nginx canary rules cannot match paths)']);
  });

  it('rejects a cookie value other than always, a Prefix header, mirrors and fractional weights', () => {
    const out = unsupportedFeatures(
      traffic({
        weight: 12.5,
        matches: [match({ cookies: [vm('beta', 'yes')] }), match({ headers: [vm('x', 'v', 'Prefix')] })],
        mirrorRoutes: [{ name: 'm', percentage: 10, matches: [] }],
      }),
    );
    expect(out).toHaveLength(4);
    expect(out[0]).toMatch(/^weight 12.5 is not a whole number/);
    expect(out[1]).toMatch(/^mirror routes \(setMirrorRoute: m\)/);
    expect(out[2]).toMatch(/^match 1: cookie beta=yes .*only routes the cookie value "always"/);
    expect(out[3]).toMatch(/^match 2: header x\^=v .*not Prefix/);
  });
});

describe('ingress-nginx check and claims', () => {
  it('reports a missing Ingress at the options', () => {
    expect(check(ctx({ ingresses: ['web', 'nope'] }))).toEqual([
      {
        ...optionsOrigin,
        message: `Ingress "nope" not found in the app's manifests; add it or fix trafficRoutings[0].ingress.name`,
        severity: 'error',
      },
    ]);
  });

  it('passes a fitting Ingress', () => {
    expect(check(ctx())).toEqual([]);
  });

  it('reports an Ingress without a path to the stable Service', () => {
    const [d] = check({ ...ctx(), stableService: 'other' });
    expect(d).toMatchObject({ file: 'apps/web/ingress.yaml', line: 1, severity: 'error' });
    expect(d!.message).toMatch(/^Ingress "web" has no path whose backend is the stable Service "other"/);
  });

  it('reports a listed Ingress that is itself a canary', () => {
    const canary: KubeObject = {
      ...stableIngress,
      metadata: { name: 'web', namespace: 'shop', annotations: { [`${P}/canary`]: 'true' } },
    };
    const out = check(ctx({}, [canary]));
    expect(out.map((d) => d.message)).toEqual([
      `Ingress "web" is itself a canary Ingress (${P}/canary: "true"); name the stable Ingress instead`,
    ]);
  });

  it('reports a source object already named <ingress>-canary', () => {
    const taken: KubeObject = { ...stableIngress, metadata: { name: 'web-canary', namespace: 'shop' } };
    const out = check(ctx({}, [stableIngress, taken]));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ line: 101, severity: 'error' });
  });

  it('claims each host+path served by the stable Service', () => {
    expect(claims(ctx()).map((c) => c.key)).toEqual([
      'ingress-nginx:nginx:web.example.com:/',
      'ingress-nginx:nginx:*:/shop',
    ]);
    expect(claims(ctx())[0]!.origin).toEqual(at(7));
  });

  it('exposes its id, capabilities and schema', () => {
    expect(generator.id).toBe('ingress-nginx');
    expect(generator.capabilities).toBe(capabilities);
    expect(capabilities.matchesPerStep).toBe(2);
    expect(generator.optionsSchema).toBe(optionsSchema);
  });

  it('validates options with its schema', () => {
    const validate = new Ajv({ strict: true }).compile(optionsSchema);
    expect(validate(defaultOptions)).toBe(true);
    // No input format writes a canary Ingress name: the name is always <ingress>-canary, so the option is refused.
    expect(validate({ ...defaultOptions, canaryIngressName: 'argo' })).toBe(false);
    expect(validate({ ...defaultOptions, ingresses: [] })).toBe(false);
    expect(validate({ ...defaultOptions, additionalIngressAnnotations: { a: 1 } })).toBe(false);
    expect(validate({ ...defaultOptions, extra: true })).toBe(false);
  });
});
