import type { SimRequest } from '../contract/generator';
import { KubeObject, isObject } from '../model/kube';

type Json = Record<string, unknown>;

/**
 * The Service an Ingress that no provider manages sends a request to, by the Ingress API's rules:
 * a rule whose host is the request's (a `*.` host matches one label; no host matches any), then
 * its longest matching path (Exact, or Prefix by path segments; ImplementationSpecific as a string
 * prefix), else the default backend. It lets `simulate` follow a request through an ingress in
 * front of a mesh (an SMI TrafficSplit whose root Service the Ingress names). Pure.
 */
export function plainIngressBackend(
  objects: readonly KubeObject[],
  request: SimRequest,
): { service: string; rule: string } | undefined {
  for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
    const spec = isObject(ing.spec) ? ing.spec : {};
    const hit = bestPath(
      list(spec.rules).filter((r) => hostFits(r.host, request.host)),
      request.path,
    );
    const service = serviceOf(hit?.backend) ?? serviceOf(spec.defaultBackend);
    if (service)
      return { service, rule: `Ingress ${ing.metadata.name} ${hit ? String(hit.path ?? '/') : '(default backend)'}` };
  }
  return undefined;
}

function hostFits(ruleHost: unknown, host: string | undefined): boolean {
  if (typeof ruleHost !== 'string' || ruleHost === '') return true;
  if (!host) return false;
  const want = host.split(':')[0].toLowerCase();
  const rule = ruleHost.toLowerCase();
  if (!rule.startsWith('*.')) return rule === want;
  const dot = want.indexOf('.');
  return dot > 0 && want.slice(dot) === rule.slice(1);
}

function bestPath(rules: readonly Json[], requestPath: string): Json | undefined {
  const path = requestPath.split(/[?#]/)[0] || '/';
  const fitting = rules
    .flatMap((r) => list(isObject(r.http) ? r.http.paths : undefined))
    .filter((p) => pathFits(p, path));
  return fitting.sort((a, b) => String(b.path ?? '/').length - String(a.path ?? '/').length)[0];
}

function pathFits(p: Json, path: string): boolean {
  const want = typeof p.path === 'string' && p.path !== '' ? p.path : '/';
  if (p.pathType === 'Exact') return path === want;
  if (p.pathType === 'ImplementationSpecific') return path.startsWith(want);
  const prefix = want.endsWith('/') ? want : `${want}/`;
  return want === '/' || path === want || path.startsWith(prefix);
}

function serviceOf(backend: unknown): string | undefined {
  const service = isObject(backend) && isObject(backend.service) ? backend.service.name : undefined;
  return typeof service === 'string' ? service : undefined;
}

function list(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
