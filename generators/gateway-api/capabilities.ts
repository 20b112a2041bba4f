import type { Capabilities } from '../../src/contract/generator';

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
