import type { TrafficState } from '../../src/model/plan';
import type { HeaderModifier, ValueMatch } from '../../src/model/rollout';
import { Flavour, NGINX_PREFIX } from './flavour';

type Annotations = Record<string, string>;

const nginx = (name: string): string => `${NGINX_PREFIX}/${name}`;
const ext = (f: Flavour, name: string): string => `${f.extPrefix}/${name}`;

/**
 * Canary keys rollgen owns: `canary*` under the nginx prefix and under the product's own prefix
 * (both products read `<ext>/canary-weight` like `nginx.../canary-weight`). They are dropped from
 * the copied stable annotations and rebuilt for every step, so no key outlives the step that
 * wrote it (Kruise's mse.lua clears `mse.../canary-by-query` but writes `nginx.../canary-by-query`).
 */
export function isOwnedKey(f: Flavour, key: string): boolean {
  return key.startsWith(nginx('canary')) || key.startsWith(ext(f, 'canary'));
}

/** Weight split keys: the weight, and its total only when not 100. */
export function weightAnnotations(traffic: TrafficState): Annotations {
  const out: Annotations = { [nginx('canary')]: 'true', [nginx('canary-weight')]: String(traffic.weight) };
  if (traffic.weightTotal !== 100) out[nginx('canary-weight-total')] = String(traffic.weightTotal);
  return out;
}

/**
 * Match route keys for the step's single match (`unsupportedFeatures` guarantees one): a header
 * (nginx-compatible keys), a query parameter (MSE's own keys, ANDed with the header), or a cookie.
 */
export function matchAnnotations(f: Flavour, traffic: TrafficState): Annotations {
  const out: Annotations = { [nginx('canary')]: 'true' };
  const match = traffic.matches[0];
  if (!match) return out;
  const header = match.headers[0];
  if (header) Object.assign(out, valueKeys(nginx('canary-by-header'), header));
  const query = match.queryParams[0];
  if (query) Object.assign(out, valueKeys(ext(f, 'canary-by-query'), query));
  const cookie = match.cookies[0];
  if (cookie) out[nginx('canary-by-cookie')] = cookie.name;
  return out;
}

function valueKeys(key: string, m: ValueMatch): Annotations {
  return { [key]: m.name, [`${key}-${m.type === 'RegularExpression' ? 'pattern' : 'value'}`]: m.value };
}

/**
 * requestHeaderModifier as the product's header control: one `name value` per line for set
 * (`request-header-control-update`) and add, names joined by commas for remove. On a canary
 * Ingress these apply to canary requests only (Higress moves them to the canary destination).
 */
export function headerControlAnnotations(f: Flavour, modifier: HeaderModifier | undefined): Annotations {
  if (!modifier) return {};
  const lines = (pairs: HeaderModifier['set']): string => pairs.map((p) => `${p.name} ${p.value}`).join('\n');
  const out: Annotations = {};
  if (modifier.set.length > 0) out[ext(f, 'request-header-control-update')] = lines(modifier.set);
  if (modifier.add.length > 0) out[ext(f, 'request-header-control-add')] = lines(modifier.add);
  if (modifier.remove.length > 0) out[ext(f, 'request-header-control-remove')] = modifier.remove.join(',');
  return out;
}

/** MSE: a stable Ingress that routes to a service subset gets the canary subset `gray` on its canary (Kruise mse.lua). */
export function subsetAnnotations(f: Flavour, stable: Readonly<Annotations>): Annotations {
  const key = ext(f, 'service-subset');
  return f.serviceSubset && key in stable ? { [key]: 'gray' } : {};
}
