import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { check } from './check';
import { claims } from './claims';
import { CustomOptions, optionsSchema } from './options';
import { render } from './render';

/**
 * What a user template can express is unknown to rollgen, so everything Kruise hands a custom
 * network provider's Lua script (weight, matches, requestHeaderModifier) is declared expressible:
 * the template is responsible for it, and check() refuses a template that never reads a feature
 * a step uses. Mirror and named header routes are Argo features that Kruise never sends here.
 */
export const capabilities: Capabilities = {
  weight: true,
  customWeightTotal: true,
  headerMatchTypes: ['Exact', 'RegularExpression', 'Prefix'],
  cookieMatch: true,
  queryMatch: true,
  pathMatch: true,
  methodMatch: true,
  conditionsPerMatch: Number.MAX_SAFE_INTEGER,
  matchesPerStep: Number.MAX_SAFE_INTEGER,
  matchWithWeight: true,
  namedHeaderRoutes: false,
  mirror: false,
  requestHeaderModifier: true,
};

export default defineGenerator<CustomOptions>({
  id: 'custom',
  summary:
    'any Kruise customNetworkRefs kind, rendered per step by a user-supplied logic-less Handlebars RouteTemplate',
  capabilities,
  optionsSchema,
  /** Kruise customNetworkRefs that no other provider takes (e.g. not all Istio objects). */
  inputs: { kruiseCustomRefs: {} },
  check,
  claims,
  render,
  // A custom object has no data plane rollgen knows, so nothing can be evaluated against it.
  simulate: () => undefined,
});

export type { CustomOptions } from './options';
