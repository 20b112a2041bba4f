import { isObject, KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { ISTIO_GROUP, groupOf } from './options';
import { asList, destinationOf, Json, ruleLabel, rulesOf, shortHost, specOf } from './vs';

type Backend = SimResult['backends'][number];

/**
 * Evaluates a request as an Istio sidecar or gateway would: the first VirtualService whose hosts
 * fit, its http rules in order (first match wins), then the weights. A rule that delegates is
 * replaced by the delegate VirtualService's rules (both matches must fit, as Istio merges them);
 * when none fits, or the delegate is missing, the next rule of the root is tried. A VirtualService
 * without hosts is a delegate, never a root. A subset becomes the labels of its DestinationRule
 * subset, so the pods it reaches are the Service's pods carrying them; a subset no DestinationRule
 * defines gets labels no pod has (Envoy answers 503 there). Gateways, ports, source labels and
 * schemes are not modelled.
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const roots = objects.filter((o) => isVirtualService(o) && hostsFit(o, request.host));
  for (const vs of roots) {
    const rules = rulesOf(vs, 'http');
    for (const [index, rule] of rules.entries()) {
      if (!ruleFits(rule, request)) continue;
      const where = `VirtualService ${vs.metadata.name} http route ${ruleLabel(rule, index)}`;
      if (!isObject(rule.delegate)) return ruleResult(objects, rule, where);
      const found = viaDelegate(objects, vs, rule.delegate, request, where);
      if (found) return found;
    }
  }
  return undefined;
}

const isVirtualService = (o: KubeObject): boolean =>
  o.kind === 'VirtualService' && groupOf(o.apiVersion) === ISTIO_GROUP;

const ruleFits = (rule: Json, request: SimRequest): boolean =>
  asList(rule.match).length === 0 || asList(rule.match).some((m) => blockFits(m, request));

function ruleResult(objects: readonly KubeObject[], rule: Json, where: string): SimResult {
  const mirror = isObject(rule.mirror) ? backend(objects, rule.mirror, mirrorShare(rule)) : undefined;
  return { backends: weighted(objects, asList(rule.route)), rule: where, ...(mirror ? { mirror } : {}) };
}

/** The delegate's first fitting rule (its namespace defaults to the root's); Istio does not chain delegates. */
function viaDelegate(
  objects: readonly KubeObject[],
  root: KubeObject,
  ref: Json,
  request: SimRequest,
  where: string,
): SimResult | undefined {
  const namespace = typeof ref.namespace === 'string' ? ref.namespace : root.metadata.namespace;
  const delegate = objects.find(
    (o) => isVirtualService(o) && o.metadata.name === ref.name && (o.metadata.namespace ?? namespace) === namespace,
  );
  if (!delegate) return undefined;
  const rules = rulesOf(delegate, 'http');
  const index = rules.findIndex((r) => !isObject(r.delegate) && ruleFits(r, request));
  if (index < 0) return undefined;
  const label = `${where}, delegated to VirtualService ${delegate.metadata.name} http route ${ruleLabel(rules[index], index)}`;
  return ruleResult(objects, rules[index], label);
}

function weighted(objects: readonly KubeObject[], route: readonly Json[]): Backend[] {
  const weights = route.map((d) => (route.length === 1 ? 1 : typeof d.weight === 'number' ? d.weight : 0));
  const total = weights.reduce((a, b) => a + b, 0);
  return route.flatMap((d, i) =>
    weights[i] > 0 && total > 0 ? [backend(objects, destinationOf(d), weights[i] / total)] : [],
  );
}

function backend(objects: readonly KubeObject[], destination: Json, share: number): Backend {
  const service = shortHost(destination.host);
  if (typeof destination.subset !== 'string') return { service, share };
  return { service, share, labels: subsetLabels(objects, service, destination.subset) };
}

function subsetLabels(objects: readonly KubeObject[], service: string, subset: string): Record<string, string> {
  for (const dr of objects.filter((o) => o.kind === 'DestinationRule' && shortHost(specOf(o).host) === service)) {
    const found = asList(specOf(dr).subsets).find((s) => s.name === subset);
    if (found)
      return Object.fromEntries(
        Object.entries(isObject(found.labels) ? found.labels : {}).map(([k, v]) => [k, String(v)]),
      );
  }
  return { 'rollgen.dev/undefined-subset': subset };
}

const mirrorShare = (rule: Json): number =>
  isObject(rule.mirrorPercentage) && typeof rule.mirrorPercentage.value === 'number'
    ? rule.mirrorPercentage.value / 100
    : 1;

/** `*`, `*.suffix`, an exact name, or a short Service name for `name` and `name.<namespace...>`. */
function hostsFit(vs: KubeObject, host: string | undefined): boolean {
  const hosts = Array.isArray(specOf(vs).hosts) ? (specOf(vs).hosts as unknown[]) : [];
  // Without hosts it is a delegate: only a root's delegate rule reaches it.
  if (hosts.length === 0) return false;
  if (host === undefined) return true;
  const h = host.toLowerCase().replace(/:\d+$/, '');
  return hosts
    .map((x) => String(x).toLowerCase())
    .some((pattern) => {
      if (pattern === '*' || pattern === h) return true;
      if (pattern.startsWith('*.')) return h.endsWith(pattern.slice(1));
      return !pattern.includes('.') && h.startsWith(`${pattern}.`);
    });
}

export function blockFits(m: Json, r: SimRequest): boolean {
  const path = r.path.split(/[?#]/)[0] || '/';
  const uri = m.ignoreUriCase === true ? path.toLowerCase() : path;
  if (isObject(m.uri) && !stringFits(m.uri, uri, m.ignoreUriCase === true)) return false;
  if (isObject(m.method) && !stringFits(m.method, r.method ?? 'GET')) return false;
  if (isObject(m.authority) && !stringFits(m.authority, r.host ?? '')) return false;
  for (const [name, sm] of Object.entries(isObject(m.headers) ? m.headers : {}))
    if (!valueFits(sm, header(r, name))) return false;
  for (const [name, sm] of Object.entries(isObject(m.withoutHeaders) ? m.withoutHeaders : {}))
    if (valueFits(sm, header(r, name))) return false;
  for (const [name, sm] of Object.entries(isObject(m.queryParams) ? m.queryParams : {}))
    if (!valueFits(sm, r.query[name])) return false;
  return true;
}

/** An empty StringMatch asks only that the value is present. */
function valueFits(sm: unknown, value: string | undefined): boolean {
  if (value === undefined) return false;
  return !isObject(sm) || Object.keys(sm).length === 0 || stringFits(sm, value);
}

/** Envoy regexes (RE2) must match the whole value. */
function stringFits(sm: Json, value: string, lower = false): boolean {
  const v = (x: unknown) => (lower ? String(x).toLowerCase() : String(x));
  if (sm.exact !== undefined) return value === v(sm.exact);
  if (sm.prefix !== undefined) return value.startsWith(v(sm.prefix));
  if (sm.regex !== undefined) return new RegExp(`^(?:${String(sm.regex)})$`).test(value);
  return true;
}

function header(r: SimRequest, name: string): string | undefined {
  const found = Object.keys(r.headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return found === undefined ? undefined : r.headers[found];
}
