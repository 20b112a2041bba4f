import Ajv from 'ajv';
import higress from '../../generators/higress';
import { check, claims } from '../../generators/higress/check';
import { unsupportedFeatures } from '../../generators/higress/features';
import { HIGRESS, MSE } from '../../generators/higress/flavour';
import type { HigressOptions } from '../../generators/higress/options';
import { render } from '../../generators/higress/render';
import { simulate } from '../../generators/higress/simulate';
import mse from '../../generators/mse';
import type { GeneratorContext, SimRequest } from '../../src/contract/generator';
import type { KubeObject } from '../../src/model/kube';
import {
  match,
  optionsOrigin,
  soloContext,
  sourceResources,
  traffic,
  vm,
  webRollout,
} from '../helpers/generator-context';

const N = 'nginx.ingress.kubernetes.io';
const H = 'higress.io';
const M = 'mse.ingress.kubernetes.io';

const svcPath = (path: string, service: string) => ({
  path,
  pathType: 'Prefix',
  backend: { service: { name: service, port: { number: 80 } } },
});
const ingress = (name: string, annotations: Record<string, string> = {}, service = 'web'): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name, namespace: 'shop', annotations },
  spec: { ingressClassName: 'higress', rules: [{ host: 'web.example.com', http: { paths: [svcPath('/', service)] } }] },
});
const stable = ingress('web', {
  [`${H}/timeout`]: '5',
  [`${N}/canary-by-header`]: 'x-old',
  [`${H}/canary-weight`]: '9',
  [`${M}/canary-by-query`]: 'old',
  [`${M}/service-subset`]: '',
});

function ctx(objects: KubeObject[] = [stable], ingresses = ['web']): GeneratorContext<HigressOptions> {
  return soloContext({
    app: 'web',
    rollout: webRollout(),
    options: { ingresses },
    optionsOrigin,
    resources: sourceResources('apps/web/ingress.yaml', objects),
    stableService: 'web',
    canaryService: 'web-canary',
  });
}
const byName = (objects: readonly KubeObject[]) =>
  Object.fromEntries(objects.map((o) => [o.metadata.name, o.metadata.annotations ?? {}]));

describe('annotations', () => {
  it('a weight step: one <ingress>-canary, stale canary keys of the stable Ingress dropped, user keys kept', () => {
    expect(byName(render(HIGRESS, ctx(), traffic({ weight: 20, weightTotal: 1000 })))).toEqual({
      'web-canary': {
        [`${H}/timeout`]: '5',
        [`${M}/canary-by-query`]: 'old',
        [`${M}/service-subset`]: '',
        [`${N}/canary`]: 'true',
        [`${N}/canary-weight`]: '20',
        [`${N}/canary-weight-total`]: '1000',
      },
    });
  });

  it('a header match with a weight: the match route on <ingress>-canary, the weight on <ingress>-canary-weight', () => {
    const out = byName(
      render(HIGRESS, ctx(), traffic({ weight: 30, matches: [match({ headers: [vm('x-env', 'canary')] })] })),
    );
    expect(Object.keys(out)).toEqual(['web-canary', 'web-canary-weight']);
    expect(out['web-canary']).toMatchObject({
      [`${N}/canary-by-header`]: 'x-env',
      [`${N}/canary-by-header-value`]: 'canary',
    });
    expect(out['web-canary']).not.toHaveProperty(`${N}/canary-weight`);
    expect(out['web-canary-weight']).toMatchObject({ [`${N}/canary-weight`]: '30' });
    expect(out['web-canary-weight']).not.toHaveProperty(`${N}/canary-by-header`);
  });

  it('a step that drops the header match leaves no header key behind (no leftovers from earlier steps)', () => {
    const withHeader = render(
      MSE,
      ctx(),
      traffic({
        matches: [match({ headers: [vm('x-env', 'canary', 'RegularExpression')], queryParams: [vm('q', '1')] })],
      }),
    );
    expect(byName(withHeader)['web-canary']).toMatchObject({
      [`${N}/canary-by-header-pattern`]: 'canary',
      [`${M}/canary-by-query`]: 'q',
      [`${M}/canary-by-query-value`]: '1',
    });
    const after = byName(render(MSE, ctx(), traffic({ weight: 50 })))['web-canary'];
    expect(Object.keys(after).filter((k) => /canary-by-/.test(k))).toEqual([]);
  });

  it('mse: service-subset becomes gray on the canary; higress copies it as a user key', () => {
    expect(byName(render(MSE, ctx(), traffic({ weight: 5 })))['web-canary'][`${M}/service-subset`]).toBe('gray');
    expect(byName(render(HIGRESS, ctx(), traffic({ weight: 5 })))['web-canary'][`${M}/service-subset`]).toBe('');
  });

  it('requestHeaderModifier becomes header control under the product prefix, on every canary Ingress of the step', () => {
    const modifier = {
      set: [
        { name: 'a', value: '1' },
        { name: 'b', value: 'x y' },
      ],
      add: [{ name: 'c', value: '3' }],
      remove: ['d', 'e'],
    };
    const out = byName(
      render(
        MSE,
        ctx(),
        traffic({ weight: 10, matches: [match({ cookies: [vm('beta', 'always')] })], requestHeaderModifier: modifier }),
      ),
    );
    for (const a of Object.values(out)) {
      expect(a).toMatchObject({
        [`${M}/request-header-control-update`]: 'a 1\nb x y',
        [`${M}/request-header-control-add`]: 'c 3',
        [`${M}/request-header-control-remove`]: 'd,e',
      });
    }
    expect(out['web-canary'][`${N}/canary-by-cookie`]).toBe('beta');
  });

  it('the stable-only state renders nothing', () => {
    expect(render(HIGRESS, ctx(), traffic())).toEqual([]);
  });
});

describe('features', () => {
  it('higress cannot match query parameters; mse can, ANDed with one header', () => {
    const step = traffic({ matches: [match({ headers: [vm('h', '1')], queryParams: [vm('q', '1')] })] });
    expect(higress.capabilities.queryMatch).toBe(false);
    expect(mse.capabilities.queryMatch).toBe(true);
    expect(unsupportedFeatures(MSE, step)).toEqual([]);
  });

  it('names what one canary route cannot hold', () => {
    const cookieAnd = traffic({ matches: [match({ cookies: [vm('c', 'always')], headers: [vm('h', '1')] })] });
    expect(unsupportedFeatures(MSE, cookieAnd)).toEqual([expect.stringMatching(/ANDs a cookie with other conditions/)]);
    expect(unsupportedFeatures(HIGRESS, traffic({ matches: [match({ headers: [vm('v', '1.0')] })] }))).toEqual([
      expect.stringMatching(/always\|1\.0/),
    ]);
    expect(unsupportedFeatures(MSE, traffic({ matches: [match({ headers: [vm('v', '1.0')] })] }))).toEqual([]);
    expect(unsupportedFeatures(HIGRESS, traffic({ matches: [match({ cookies: [vm('c', 'yes')] })] }))).toEqual([
      expect.stringMatching(/only routes the cookie value "always"/),
    ]);
    expect(
      unsupportedFeatures(
        HIGRESS,
        traffic({ weight: 10, requestHeaderModifier: { set: [], add: [], remove: ['a,b'] } }),
      ),
    ).toEqual([expect.stringMatching(/remove "a,b"/)]);
  });
});

describe('check and claims', () => {
  it('reports a missing Ingress, a canary Ingress named as stable and a taken canary name', () => {
    expect(check(HIGRESS, ctx([], ['nope'])).map((d) => d.message)).toEqual([
      expect.stringMatching(/Ingress "nope" not found/),
    ]);
    expect(check(HIGRESS, ctx([ingress('web', { [`${H}/canary`]: 'true' })])).map((d) => d.message)).toEqual([
      expect.stringMatching(/itself a canary Ingress \(higress.io\/canary/),
    ]);
    expect(check(MSE, ctx([stable, ingress('web-canary')])).map((d) => d.message)).toEqual([
      expect.stringMatching(/"web-canary" already exists/),
    ]);
  });

  it('claims each host+path under the provider id', () => {
    expect(claims(MSE, ctx()).map((c) => c.key)).toEqual(['mse:higress:web.example.com:/']);
  });

  it('options schema: one DNS name at least', () => {
    const validate = new Ajv({ strict: false }).compile(higress.optionsSchema);
    expect(validate({ ingresses: ['web'] })).toBe(true);
    expect(validate({ ingresses: [] })).toBe(false);
    expect(validate({ ingresses: ['Web_1'] })).toBe(false);
    expect(validate({ ingresses: ['web'], annotationPrefix: 'x' })).toBe(false);
  });
});

describe('simulate', () => {
  const req = (p: Partial<SimRequest>): SimRequest => ({
    host: 'web.example.com',
    path: '/',
    headers: {},
    cookies: {},
    query: {},
    ...p,
  });
  const withStable = (...canaries: KubeObject[]) => [ingress('web'), ...canaries];
  const canary = (name: string, a: Record<string, string>) =>
    ingress(name, { [`${N}/canary`]: 'true', ...a }, 'web-canary');
  const services = (r: ReturnType<typeof simulate>) => r?.backends.map((b) => `${b.service}:${b.share}`);

  it('a header canary never carries a weight: its weight key is ignored, other requests go to stable', () => {
    const objects = withStable(
      canary('web-canary', {
        [`${N}/canary-by-header`]: 'x',
        [`${N}/canary-by-header-value`]: 'on',
        [`${N}/canary-weight`]: '50',
      }),
    );
    expect(services(simulate(HIGRESS, objects, req({ headers: { X: 'on' } })))).toEqual(['web-canary:1']);
    expect(services(simulate(HIGRESS, objects, req({})))).toEqual(['web:1']);
  });

  it('higress also routes `always` when a header value is set; mse matches the value exactly', () => {
    const objects = withStable(
      canary('web-canary', { [`${N}/canary-by-header`]: 'x', [`${N}/canary-by-header-value`]: 'on' }),
    );
    expect(services(simulate(HIGRESS, objects, req({ headers: { x: 'always' } })))).toEqual(['web-canary:1']);
    expect(services(simulate(MSE, objects, req({ headers: { x: 'always' } })))).toEqual(['web:1']);
  });

  it('a non-matching header ("never" included) falls through to the weight canary', () => {
    const objects = withStable(
      canary('web-canary', { [`${N}/canary-by-header`]: 'x' }),
      canary('web-canary-weight', { [`${N}/canary-weight`]: '25' }),
    );
    expect(services(simulate(HIGRESS, objects, req({ headers: { x: 'never' } })))).toEqual([
      'web:0.75',
      'web-canary:0.25',
    ]);
    expect(simulate(HIGRESS, objects, req({ headers: { x: 'always' } }))?.rule).toBe('canary-by-header x=always');
  });

  it('mse ANDs header and query; the cookie only counts without them; higress ignores query keys', () => {
    const objects = withStable(
      canary('web-canary', {
        [`${N}/canary-by-header`]: 'h',
        [`${N}/canary-by-header-value`]: '1',
        [`${M}/canary-by-query`]: 'q',
        [`${M}/canary-by-query-pattern`]: '[0-9]+',
        [`${N}/canary-by-cookie`]: 'c',
      }),
    );
    expect(services(simulate(MSE, objects, req({ headers: { h: '1' }, query: { q: '42' } })))).toEqual([
      'web-canary:1',
    ]);
    expect(services(simulate(MSE, objects, req({ headers: { h: '1' }, query: { q: '4a' } })))).toEqual(['web:1']);
    expect(services(simulate(MSE, objects, req({ cookies: { c: 'always' } })))).toEqual(['web:1']);
    expect(services(simulate(HIGRESS, objects, req({ headers: { h: '1' } })))).toEqual(['web-canary:1']);
    const cookieOnly = withStable(canary('web-canary', { [`${N}/canary-by-cookie`]: 'c' }));
    expect(services(simulate(MSE, cookieOnly, req({ cookies: { c: 'always' } })))).toEqual(['web-canary:1']);
  });

  it('reads the compatible keys under the product prefix too', () => {
    const objects = withStable(
      ingress(
        'web-canary',
        { [`${H}/canary`]: 'true', [`${H}/canary-weight`]: '40', [`${H}/canary-weight-total`]: '200' },
        'web-canary',
      ),
    );
    expect(services(simulate(HIGRESS, objects, req({})))).toEqual(['web:0.8', 'web-canary:0.2']);
  });
});
