import type { RouteMatch } from '../../src/model/rollout';
import type { TrafficState } from '../../src/model/plan';
import { canaryAnnotations } from './render';
import { NginxOptions, annotationKey, userAnnotations } from './options';

type Annotations = Readonly<Record<string, string>>;

/**
 * The request rules of a canary Ingress's annotations, read once as ingress-nginx reads them:
 * simulate decides by them, and plan and status show the ones the user's annotations add.
 */
export interface CanaryRules {
  /** canary-by-header: `-value` (exact) wins over `-pattern`; neither: the values always / never. */
  readonly header?: { readonly name: string; readonly exact?: string; readonly pattern?: string };
  /** canary-by-cookie: the value always sends to the canary. */
  readonly cookie?: string;
}

export function canaryRules(annotations: Annotations, prefix: string): CanaryRules {
  const read = (name: string) => annotations[annotationKey(prefix, name)] || undefined;
  const header = read('canary-by-header');
  const cookie = read('canary-by-cookie');
  const exact = read('canary-by-header-value');
  const pattern = exact ? undefined : read('canary-by-header-pattern');
  return {
    ...(header ? { header: { name: header, ...(exact ? { exact } : {}), ...(pattern ? { pattern } : {}) } } : {}),
    ...(cookie ? { cookie } : {}),
  };
}

/** The rules as the requests they send to the canary, in the form of a rollout's matches. */
function asMatches(rules: CanaryRules): RouteMatch[] {
  const out: RouteMatch[] = [];
  const h = rules.header;
  if (h) {
    const value = h.exact ?? h.pattern ?? 'always';
    out.push({
      headers: [{ name: h.name, type: h.pattern ? 'RegularExpression' : 'Exact', value }],
      queryParams: [],
      cookies: [],
    });
  }
  if (rules.cookie)
    out.push({ headers: [], queryParams: [], cookies: [{ name: rules.cookie, type: 'Exact', value: 'always' }] });
  return out;
}

/**
 * The ways a request reaches the canary in `traffic` beyond the step's own matches: the canary
 * Ingress carries the user's annotations (Argo additionalIngressAnnotations, canaryIngressAnnotations)
 * merged under the step's, exactly as render writes them, so a `canary-by-header` there routes too.
 */
export function providerMatches(options: NginxOptions, traffic: TrafficState): RouteMatch[] {
  if (traffic.weight <= 0 && traffic.matches.length === 0) return []; // no canary Ingress in this state
  const prefix = options.annotationPrefix;
  const own = canaryAnnotations(prefix, traffic);
  const stepMatches = new Set(asMatches(canaryRules(own, prefix)).map((m) => JSON.stringify(m)));
  const written = { ...userAnnotations(options), ...own };
  return asMatches(canaryRules(written, prefix)).filter((m) => !stepMatches.has(JSON.stringify(m)));
}
