import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { check, claims } from './check';
import { unsupportedFeatures } from './features';
import { simulateHop } from './mesh';
import { IstioOptions, optionsSchema } from './options';
import { render } from './render';
import { simulate } from './simulate';
import { inputs } from './inputs';

/**
 * What a VirtualService http rule can say: any number of ORed match blocks, each ANDing headers
 * (exact, prefix, regex), query parameters (exact, regex), uri and method; request header
 * operations; a mirror. Weights are integers out of 100. `unsupportedFeatures` covers the rest.
 */
export const capabilities: Capabilities = {
  weight: true,
  customWeightTotal: false,
  headerMatchTypes: ['Exact', 'RegularExpression', 'Prefix'],
  cookieMatch: false,
  queryMatch: true,
  pathMatch: true,
  methodMatch: true,
  conditionsPerMatch: 64,
  matchesPerStep: 64,
  matchWithWeight: true,
  namedHeaderRoutes: true,
  mirror: true,
  requestHeaderModifier: true,
  pingPong: true,
};

export default defineGenerator<IstioOptions>({
  id: 'istio',
  summary:
    'Istio VirtualService weights (host or subset mode, http/tls/tcp), header, match and mirror routes, DestinationRule canary subset',
  capabilities,
  optionsSchema,
  inputs,
  check,
  unsupported: unsupportedFeatures,
  claims,
  render,
  simulate,
  simulateHop,
});

export type { IstioOptions } from './options';
