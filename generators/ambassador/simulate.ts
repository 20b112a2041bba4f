import { KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { isMapping, Json, specOf, splitServiceUrl } from './options';

interface Candidate {
  readonly name: string;
  readonly spec: Json;
  readonly group: string;
}

/**
 * Evaluates a request as Ambassador / Emissary would: Mappings whose prefix, host and exact
 * headers fit; the group (same prefix, host and headers) with the highest `precedence`, then the
 * longest prefix, wins; inside it each weighted Mapping gets its weight in percent and the
 * unweighted ones share the rest equally.
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const fitting = objects
    .filter(isMapping)
    .map((o) => ({ name: o.metadata.name, spec: specOf(o), group: groupKey(specOf(o)) }))
    .filter((c) => fits(c.spec, request));
  if (fitting.length === 0) return undefined;
  const best = [...fitting].sort((a, b) => rank(b.spec) - rank(a.spec))[0];
  const group = fitting.filter((c) => c.group === best.group);
  return {
    backends: shares(group),
    rule: `Mapping group ${String(best.spec.prefix ?? '/')} (${group.map((c) => c.name).join(', ')})`,
  };
}

function shares(group: readonly Candidate[]): SimResult['backends'] {
  const weighted = group.filter((c) => typeof c.spec.weight === 'number');
  const rest = group.filter((c) => typeof c.spec.weight !== 'number');
  const used = weighted.reduce((n, c) => n + Number(c.spec.weight), 0);
  const left = Math.max(0, 100 - used);
  const out = [
    ...weighted.map((c) => ({ service: serviceOf(c.spec), share: Number(c.spec.weight) / 100 })),
    ...rest.map((c) => ({ service: serviceOf(c.spec), share: left / 100 / rest.length })),
  ].filter((b) => b.share > 0);
  const total = out.reduce((n, b) => n + b.share, 0);
  return out.map((b) => ({ ...b, share: b.share / total }));
}

const serviceOf = (spec: Json): string => splitServiceUrl(String(spec.service ?? '')).service;

function groupKey(spec: Json): string {
  return JSON.stringify([spec.prefix ?? '/', spec.hostname ?? spec.host ?? '*', spec.headers ?? {}, spec.method ?? '']);
}

const rank = (spec: Json): number =>
  (typeof spec.precedence === 'number' ? spec.precedence : 0) * 1e6 + String(spec.prefix ?? '/').length;

function fits(spec: Json, r: SimRequest): boolean {
  const path = r.path.split(/[?#]/)[0] || '/';
  if (!path.startsWith(String(spec.prefix ?? '/'))) return false;
  const host = String(spec.hostname ?? spec.host ?? '*');
  const want = (r.host ?? '').toLowerCase().replace(/:\d+$/, '');
  if (host !== '*' && r.host !== undefined && !hostFits(host.toLowerCase(), want)) return false;
  if (typeof spec.method === 'string' && spec.method !== (r.method ?? 'GET')) return false;
  const headers = typeof spec.headers === 'object' && spec.headers !== null ? (spec.headers as Json) : {};
  return Object.entries(headers).every(([k, v]) => headerOf(r, k) === String(v));
}

const hostFits = (pattern: string, host: string): boolean =>
  pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : pattern === host;

function headerOf(r: SimRequest, name: string): string | undefined {
  const found = Object.keys(r.headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return found === undefined ? undefined : r.headers[found];
}
