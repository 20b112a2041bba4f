import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { weightOnlyCapabilities, wholePercentProblems } from '../_kit/weight-only';
import { check, claims } from './check';
import { inputs } from './inputs';
import { ApisixOptions, optionsSchema } from './options';
import { render } from './render';
import { simulate } from './simulate';

/**
 * ApisixRoute backend weights out of 100, and setHeaderRoute as an ApisixRoute whose rules match
 * header exprs (Equal, RegexMatch; a prefix becomes an anchored regex). No mirror, no header
 * modification (Argo's APISIX provider neither).
 */
export const capabilities: Capabilities = {
  ...weightOnlyCapabilities,
  headerMatchTypes: ['Exact', 'RegularExpression', 'Prefix'],
  matchWithWeight: true,
  namedHeaderRoutes: true,
};

export default defineGenerator<ApisixOptions>({
  id: 'apisix',
  summary: 'Apache APISIX ApisixRoute backend weights, and each setHeaderRoute as an ApisixRoute with header exprs',
  capabilities,
  optionsSchema,
  inputs,
  check,
  unsupported: (t) => wholePercentProblems(t, 'ApisixRoute backend weights'),
  claims,
  render,
  simulate,
});

export type { ApisixOptions } from './options';
