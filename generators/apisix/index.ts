import { Capabilities, defineGenerator } from '../types';
import { check, claims } from './check';
import { ApisixOptions, optionsSchema } from './options';
import { render } from './render';
import { simulate } from './simulate';

/**
 * ApisixRoute backend weights out of 100, and setHeaderRoute as an ApisixRoute whose rules match
 * header exprs (Equal, RegexMatch; a prefix becomes an anchored regex). No mirror, no header
 * modification (Argo's APISIX provider neither).
 */
export const capabilities: Capabilities = {
  weight: true,
  customWeightTotal: false,
  headerMatchTypes: ['Exact', 'RegularExpression', 'Prefix'],
  cookieMatch: false,
  queryMatch: false,
  pathMatch: false,
  methodMatch: false,
  conditionsPerMatch: 0,
  matchesPerStep: 0,
  matchWithWeight: true,
  namedHeaderRoutes: true,
  mirror: false,
  requestHeaderModifier: false,
};

export default defineGenerator<ApisixOptions>({
  id: 'apisix',
  summary: 'Apache APISIX ApisixRoute backend weights, and each setHeaderRoute as an ApisixRoute with header exprs',
  capabilities,
  optionsSchema,
  check,
  unsupported: (t) =>
    Number.isInteger((t.weight * 100) / t.weightTotal)
      ? []
      : [`weight ${t.weight} (ApisixRoute backend weights are whole numbers out of 100)`],
  claims,
  render,
  simulate,
});

export type { ApisixOptions } from './options';
