import type { KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { findCanaryPath, matchStablePath, headerValue } from '../_kit/ingress-match';

/** A canary rule that decided the request outright. */
interface Verdict {
  readonly canary: boolean;
  readonly rule: string;
}

type Annotations = Readonly<Record<string, string>>;

/**
 * Evaluates a request as ingress-nginx would: the stable Ingress rule by host and path, then
 * the canary Ingress on the same host+path, decided by canary-by-header, then
 * canary-by-cookie, then canary-weight / canary-weight-total. Undefined when no rule matches.
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const stable = matchStablePath(objects, request);
  if (!stable) return undefined;
  const stableService = stable.path.service ?? '<resource backend>';
  const canary = findCanaryPath(objects, stable.path);
  if (!canary) return { backends: [{ service: stableService, share: 1 }], rule: 'no canary' };
  const canaryService = canary.path.service ?? '<resource backend>';
  const annotations = canary.object.metadata.annotations ?? {};
  const key = (name: string): string => `${canary.prefix}/${name}`;
  const verdict = byHeader(annotations, key, request) ?? byCookie(annotations, key, request);
  if (verdict) return split(stableService, canaryService, verdict.canary ? 1 : 0, 1, verdict.rule);
  const weight = readInt(annotations[key('canary-weight')], 0);
  const total = readInt(annotations[key('canary-weight-total')], 100) || 100;
  return split(stableService, canaryService, weight, total, `canary-weight ${weight}/${total}`);
}

/**
 * canary-by-header: with `-value` only that exact value routes to the canary; else with
 * `-pattern` a regex hit does (a broken pattern sends the request to stable, as the Lua
 * balancer does); else `always` / `never`. Anything else falls through.
 */
function byHeader(annotations: Annotations, key: (n: string) => string, request: SimRequest): Verdict | undefined {
  const name = annotations[key('canary-by-header')];
  const value = name ? headerValue(request.headers, name) : undefined;
  if (!name || value === undefined) return undefined;
  const exact = annotations[key('canary-by-header-value')];
  const pattern = annotations[key('canary-by-header-pattern')];
  if (exact) return value === exact ? { canary: true, rule: `canary-by-header ${name}=${value}` } : undefined;
  if (pattern) return byPattern(name, value, pattern);
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
function byCookie(annotations: Annotations, key: (n: string) => string, request: SimRequest): Verdict | undefined {
  const name = annotations[key('canary-by-cookie')];
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
