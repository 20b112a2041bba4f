import type { KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { headerValue } from '../_kit/ingress-match';
import { Attachment, locateRequest } from './location-match';
import { NginxLocation, placeOf } from './locations';
import { CanaryRules, canaryRules } from './canary-rules';

/** A canary rule that decided the request outright. */
interface Verdict {
  readonly canary: boolean;
  readonly rule: string;
}

/**
 * Evaluates a request as ingress-nginx would (location-match.ts): the server by host, the location
 * by path (regex servers included), then the canary attached to that location's upstream, which
 * holds for every host and path proxying to it. The canary decides by canary-by-header, then
 * canary-by-cookie, then canary-weight out of canary-weight-total. Undefined when no route matches.
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const located = locateRequest(objects, request);
  if (!located) return undefined;
  const { location, attachment } = located;
  const stableService = location.service ?? '<resource backend>';
  if (!attachment) return { backends: [{ service: stableService, share: 1 }], rule: 'no canary' };
  const canaryService = attachment.path.service ?? '<resource backend>';
  const annotations = attachment.canary.metadata.annotations ?? {};
  const key = (name: string): string => `${attachment.prefix}/${name}`;
  const shared = located.own ? '' : sharedNote(location, attachment);
  const rules = canaryRules(annotations, attachment.prefix);
  const verdict = byHeader(rules, request) ?? byCookie(rules, request);
  if (verdict) return split(stableService, canaryService, verdict.canary ? 1 : 0, 1, verdict.rule + shared);
  const weight = readInt(annotations[key('canary-weight')], 0);
  const written = readInt(annotations[key('canary-weight-total')], 100);
  // balancer.lua: `weightTotal = 100; if policy.weightTotal > 100 then weightTotal = policy.weightTotal`.
  const total = written > 100 ? written : 100;
  const ignored =
    written !== total ? ` (canary-weight-total ${written} counts as 100: ingress-nginx reads it only above 100)` : '';
  return split(stableService, canaryService, weight, total, `canary-weight ${weight}/${total}${ignored}${shared}`);
}

/** Why a location that is not the canary's own gets the canary anyway. */
function sharedNote(location: NginxLocation, attachment: Attachment): string {
  return `; ${placeOf(location)} also proxies to Service ${location.service} port ${location.port}, the ingress-nginx upstream canary Ingress "${attachment.canary.metadata.name}" is attached to (a canary applies per upstream, on every host and path)`;
}

/**
 * canary-by-header: with `-value` only that exact value routes to the canary; else with
 * `-pattern` a regex hit does (a broken pattern sends the request to stable, as the Lua
 * balancer does); else `always` / `never`. Anything else falls through.
 */
function byHeader(rules: CanaryRules, request: SimRequest): Verdict | undefined {
  const header = rules.header;
  const value = header ? headerValue(request.headers, header.name) : undefined;
  if (!header || value === undefined) return undefined;
  const name = header.name;
  if (header.exact)
    return value === header.exact ? { canary: true, rule: `canary-by-header ${name}=${value}` } : undefined;
  if (header.pattern) return byPattern(name, value, header.pattern);
  if (value === 'always' || value === 'never')
    return { canary: value === 'always', rule: `canary-by-header ${name}=${value}` };
  return undefined;
}

function byPattern(name: string, value: string, pattern: string): Verdict | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    return { canary: false, rule: `canary-by-header-pattern ${name}: invalid pattern ${pattern}` };
  }
  return regex.test(value) ? { canary: true, rule: `canary-by-header-pattern ${name}=~${pattern}` } : undefined;
}

/** canary-by-cookie: only the values `always` and `never` decide; others fall through. */
function byCookie(rules: CanaryRules, request: SimRequest): Verdict | undefined {
  const name = rules.cookie;
  const value = name ? request.cookies[name] : undefined;
  if (value !== 'always' && value !== 'never') return undefined;
  return { canary: value === 'always', rule: `canary-by-cookie ${name}=${value}` };
}

function readInt(value: string | undefined, fallback: number): number {
  const n = value === undefined ? NaN : Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Shares summing to 1; a backend with share 0 is left out (all-stable keeps the stable backend). */
function split(stable: string, canary: string, canaryUnits: number, total: number, rule: string): SimResult {
  if (canaryUnits <= 0 || stable === canary) return { backends: [{ service: stable, share: 1 }], rule };
  if (canaryUnits >= total) return { backends: [{ service: canary, share: 1 }], rule };
  return {
    backends: [
      { service: stable, share: (total - canaryUnits) / total },
      { service: canary, share: canaryUnits / total },
    ],
    rule,
  };
}
