import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { check, claims } from './check';
import { checkCommitted } from './committed';
import { NginxOptions, optionsSchema } from './options';
import { render, unsupportedFeatures } from './render';
import { simulate } from './simulate';
import { inputs } from './inputs';
import { providerMatches } from './canary-rules';

/**
 * What one ingress-nginx canary Ingress can say: one canary-by-header (Exact value or regex
 * pattern), one canary-by-cookie (value "always") and a weight, ORed in that order.
 * `unsupportedFeatures` (render.ts) checks a step precisely against this.
 */
export const capabilities: Capabilities = {
  weight: true,
  customWeightTotal: true,
  headerMatchTypes: ['Exact', 'RegularExpression'],
  cookieMatch: true,
  queryMatch: false,
  pathMatch: false,
  methodMatch: false,
  conditionsPerMatch: 1,
  matchesPerStep: 2,
  matchWithWeight: true,
  namedHeaderRoutes: false,
  mirror: false,
  requestHeaderModifier: false,
};

export default defineGenerator<NginxOptions>({
  id: 'ingress-nginx',
  summary:
    'ingress-nginx canary Ingress (<ingress>-canary) with canary-weight, canary-by-header and canary-by-cookie annotations',
  capabilities,
  optionsSchema,
  inputs,
  check,
  unsupported: unsupportedFeatures,
  claims,
  checkCommitted,
  render,
  simulate,
  providerMatches,
});

export type { NginxOptions } from './options';
export { unsupportedFeatures } from './render';
