import { splitServiceUrl } from '../../generators/ambassador/options';
import { headerExpr } from '../../generators/apisix/render';
import smi from '../../generators/smi';
import traefik from '../../generators/traefik';
import { matches } from '../../generators/traefik/rule';
import type { KubeObject } from '../../src/model/kube';

const req = (host: string, path: string, headers: Record<string, string> = {}) => ({
  host,
  path,
  headers,
  cookies: {},
  query: {},
});

test('Ambassador service strings: the Service part is found whatever scheme, namespace or port surrounds it', () => {
  expect(splitServiceUrl('web')).toEqual({ before: '', service: 'web', after: '' });
  expect(splitServiceUrl('web:8080')).toEqual({ before: '', service: 'web', after: ':8080' });
  expect(splitServiceUrl('https://web.shop.svc.cluster.local:443')).toEqual({
    before: 'https://',
    service: 'web',
    after: '.shop.svc.cluster.local:443',
  });
});

test('APISIX header exprs: a prefix becomes an anchored regex with its special characters escaped', () => {
  expect(headerExpr({ name: 'x-v', type: 'Prefix', value: 'qa.1+' })).toEqual({
    subject: { scope: 'Header', name: 'x-v' },
    op: 'RegexMatch',
    value: '^qa\\.1\\+.*',
  });
  expect(headerExpr({ name: 'x-v', type: 'Exact', value: 'a.b' }).op).toBe('Equal');
});

test('Traefik rules: && of Host, PathPrefix, Path and Header; anything else does not match', () => {
  const rule = 'Host(`a.example.com`, `b.example.com`) && PathPrefix(`/api`) && Header(`x-env`, `qa`)';
  expect(matches(rule, req('b.example.com', '/api/x', { 'X-Env': 'qa' }))).toBe(true);
  expect(matches(rule, req('b.example.com', '/api/x'))).toBe(false);
  expect(matches('Path(`/exact`)', req('h', '/exact/more'))).toBe(false);
  expect(matches('Host(`a`) || Host(`b`)', req('a', '/'))).toBe(false);
});

test('SMI: v1alpha1 quantity weights ("500m") split like integers', () => {
  const split: KubeObject = {
    apiVersion: 'split.smi-spec.io/v1alpha1',
    kind: 'TrafficSplit',
    metadata: { name: 's' },
    spec: {
      service: 'root',
      backends: [
        { service: 'a', weight: '500m' },
        { service: 'b', weight: '1500m' },
      ],
    },
  };
  expect(smi.simulateHop?.([split], 'root', req('root', '/'))?.backends).toEqual([
    { service: 'a', share: 0.25 },
    { service: 'b', share: 0.75 },
  ]);
  expect(smi.simulateHop?.([split], 'other', req('other', '/'))).toBeUndefined();
});

/**
 * Why the idle canary entry is dropped: a TraefikService that still names a canary Service after it
 * is pruned fails as a whole in Traefik, so even its weight-0 entry takes every request down.
 */
test('Traefik: a weighted TraefikService naming a missing Service sends every request there', () => {
  const ts = (services: object[]): KubeObject => ({
    apiVersion: 'traefik.io/v1alpha1',
    kind: 'TraefikService',
    metadata: { name: 'wrr' },
    spec: { weighted: { services } },
  });
  const svc: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: {} };
  const stableOnly = ts([{ name: 'web', port: 80, weight: 100 }]);
  const withIdleCanary = ts([
    { name: 'web', port: 80, weight: 100 },
    { name: 'web-canary', port: 80, weight: 0 },
  ]);
  expect(traefik.simulate([svc, stableOnly], req('h', '/'))?.backends).toEqual([{ service: 'web', share: 1 }]);
  expect(traefik.simulate([svc, withIdleCanary], req('h', '/'))?.backends).toEqual([
    { service: 'web-canary', share: 1 },
  ]);
});
