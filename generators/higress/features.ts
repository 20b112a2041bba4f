import type { TrafficState } from '../../src/model/plan';
import type { HeaderModifier, RouteMatch, ValueMatch } from '../../src/model/rollout';
import type { Capabilities } from '../../src/contract/generator';
import { Flavour } from './flavour';

/**
 * One canary Ingress is either a match route or a weight split (Higress CanaryKind), so a step has
 * one match route: one header (MSE: ANDed with one query parameter) or one cookie. Matches and a
 * weight together take two canary Ingresses, which rollgen renders.
 */
export function capabilitiesOf(f: Flavour): Capabilities {
  return {
    weight: true,
    customWeightTotal: true,
    headerMatchTypes: ['Exact', 'RegularExpression'],
    cookieMatch: true,
    queryMatch: f.queryMatch,
    pathMatch: false,
    methodMatch: false,
    conditionsPerMatch: f.queryMatch ? 2 : 1,
    matchesPerStep: 1,
    matchWithWeight: true,
    namedHeaderRoutes: false,
    mirror: false,
    requestHeaderModifier: true,
  };
}

/** RE2 metacharacters: an Exact value containing one means more than itself inside Higress's `always|value` regex. */
const REGEX_META = /[\\.+*?()|[\]{}^$]/;

/** What the capabilities cannot say, one plain sentence per feature; empty when the step is expressible. */
export function unsupportedFeatures(f: Flavour, traffic: TrafficState): string[] {
  const out: string[] = [];
  if (!Number.isInteger(traffic.weight))
    out.push(`weight ${traffic.weight} is not a whole number (canary-weight is an integer; raise the weight total)`);
  if (!Number.isInteger(traffic.weightTotal) || traffic.weightTotal < 1)
    out.push(`weight total ${traffic.weightTotal} is not a positive whole number (canary-weight-total)`);
  traffic.matches.forEach((m, i) => out.push(...matchFeatures(f, m, i + 1)));
  out.push(...modifierFeatures(f, traffic.requestHeaderModifier));
  return out;
}

function matchFeatures(f: Flavour, m: RouteMatch, n: number): string[] {
  const out: string[] = [];
  const count = m.headers.length + m.queryParams.length + m.cookies.length + (m.path ? 1 : 0) + (m.method ? 1 : 0);
  if (count === 0)
    out.push(`match ${n} has no condition, so it would send every request to the canary; use a weight instead`);
  if (m.headers.length > 1)
    out.push(`match ${n} ANDs ${m.headers.length} headers (${f.product} has one canary-by-header per canary Ingress)`);
  if (m.queryParams.length > 1)
    out.push(
      `match ${n} ANDs ${m.queryParams.length} query parameters (${f.product} has one canary-by-query per canary Ingress)`,
    );
  if (m.cookies.length > 0 && count > 1)
    out.push(
      `match ${n} ANDs a cookie with other conditions (${f.product} ignores canary-by-cookie when canary-by-header or canary-by-query is set)`,
    );
  for (const c of m.cookies) {
    if (c.type !== 'Exact' || c.value !== 'always')
      out.push(`match ${n}: cookie ${c.name} (${f.product} canary-by-cookie only routes the cookie value "always")`);
  }
  for (const q of m.queryParams) {
    if (q.type === 'Prefix')
      out.push(
        `match ${n}: query parameter ${q.name} with type Prefix (${f.product} matches query values Exact or RegularExpression)`,
      );
  }
  if (f.headerValueIsRegex) {
    for (const h of m.headers.filter((x) => x.type === 'Exact' && REGEX_META.test(x.value)))
      out.push(exactAsRegex(f, n, h));
  }
  return out;
}

function exactAsRegex(f: Flavour, n: number, h: ValueMatch): string {
  return `match ${n}: header ${h.name}=${h.value} (${f.product} matches canary-by-header-value as the regular expression "always|${h.value}", so an Exact value with regex characters would match other values; write it as a RegularExpression with the characters escaped)`;
}

/** Header control reads one `name value` per line and comma-separated names, so those characters cannot appear. */
function modifierFeatures(f: Flavour, modifier: HeaderModifier | undefined): string[] {
  if (!modifier) return [];
  const out: string[] = [];
  for (const p of [...modifier.set, ...modifier.add]) {
    if (/\s/.test(p.name) || p.name === '')
      out.push(
        `requestHeaderModifier header name "${p.name}" (${f.product} header control needs a name without spaces)`,
      );
    if (p.value.trim() === '' || /[\r\n]/.test(p.value))
      out.push(
        `requestHeaderModifier header ${p.name} with an empty or multi-line value (${f.product} header control takes one "name value" per line)`,
      );
  }
  for (const name of modifier.remove) {
    if (/[\s,]/.test(name) || name === '')
      out.push(`requestHeaderModifier remove "${name}" (${f.product} header control removes comma-separated names)`);
  }
  return out;
}
