import type { KubeObject } from '../../src/model/kube';
import { isObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { httpRules, isApisixRoute, Json, listOf } from './options';

/**
 * Evaluates a request as APISIX would: http rules whose hosts (a rule with hosts needs a request
 * host that fits; `*.x` any subdomain), paths (`/x/*` a prefix, else
 * exact), methods and exprs fit; the highest `priority` wins, then the longer path; backends
 * share by weight (default 100). Exprs read Header and Query with Equal, NotEqual and
 * RegexMatch; any other expression does not fit, so the request falls to another rule.
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const fitting = objects
    .filter(isApisixRoute)
    .flatMap((o) => httpRules(o).map((rule) => ({ o, rule })))
    .filter(({ rule }) => fits(isObject(rule.match) ? rule.match : {}, request))
    .sort((a, b) => priority(b.rule) - priority(a.rule) || pathLength(b.rule) - pathLength(a.rule));
  if (fitting.length === 0) return undefined;
  const { o, rule } = fitting[0];
  const backends = listOf(rule.backends).map((b) => ({
    service: String(b.serviceName ?? ''),
    weight: typeof b.weight === 'number' ? b.weight : 100,
  }));
  const total = backends.reduce((n, b) => n + b.weight, 0);
  return {
    backends: backends.filter((b) => b.weight > 0).map((b) => ({ service: b.service, share: b.weight / total })),
    rule: `ApisixRoute ${o.metadata.name} rule ${String(rule.name)}`,
  };
}

const priority = (rule: Json): number => (typeof rule.priority === 'number' ? rule.priority : 0);
const pathLength = (rule: Json): number =>
  Math.max(0, ...strings(isObject(rule.match) ? rule.match.paths : []).map((p) => p.length));
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

function fits(match: Json, r: SimRequest): boolean {
  const path = r.path.split(/[?#]/)[0] || '/';
  const paths = strings(match.paths);
  if (paths.length > 0 && !paths.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : p === path)))
    return false;
  const hosts = strings(match.hosts).map((h) => h.toLowerCase());
  const host = (r.host ?? '').toLowerCase().replace(/:\d+$/, '');
  // A rule with hosts serves only those: a request without a host (or another one) does not fit.
  if (hosts.length > 0 && !hosts.some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) : h === host)))
    return false;
  const methods = strings(match.methods);
  if (methods.length > 0 && !methods.includes(r.method ?? 'GET')) return false;
  return listOf(match.exprs).every((e) => exprFits(e, r));
}

function exprFits(e: Json, r: SimRequest): boolean {
  const subject = isObject(e.subject) ? e.subject : {};
  const name = String(subject.name ?? '');
  const value =
    subject.scope === 'Header'
      ? Object.entries(r.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]
      : subject.scope === 'Query'
        ? r.query[name]
        : undefined;
  if (value === undefined) return false;
  if (e.op === 'Equal') return value === String(e.value);
  if (e.op === 'NotEqual') return value !== String(e.value);
  if (e.op === 'RegexMatch') return new RegExp(String(e.value)).test(value);
  return false;
}
