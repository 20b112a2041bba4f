import { Capabilities, defineGenerator } from '../types';
import { check, claims } from './check';
import { GatewayOptions, optionsSchema } from './options';
import { render, unsupportedFeatures } from './render';
import { simulate } from './simulate';

/**
 * What an HTTPRoute can say: backendRef weights, header (Exact, RegularExpression; a prefix as an
 * anchored regex), query, path and method matches, many ANDed and ORed, RequestMirror and
 * RequestHeaderModifier; no cookie match. Route-dependent limits (16 headers per match after
 * crossing with a rule's own, 16 rules, 128 matches) are checked per step by `check`.
 */
export const capabilities: Capabilities = {
  weight: true,
  customWeightTotal: true,
  headerMatchTypes: ['Exact', 'RegularExpression', 'Prefix'],
  cookieMatch: false,
  queryMatch: true,
  pathMatch: true,
  methodMatch: true,
  conditionsPerMatch: 34,
  matchesPerStep: 64,
  matchWithWeight: true,
  namedHeaderRoutes: true,
  mirror: true,
  requestHeaderModifier: true,
};

export default defineGenerator<GatewayOptions>({
  id: 'gateway-api',
  summary: 'Gateway API HTTPRoute: backendRef weights beside the stable ref, canary rules for header/query/path matches, RequestMirror',
  capabilities,
  optionsSchema,
  check,
  unsupported: unsupportedFeatures,
  claims,
  render,
  simulate,
});
