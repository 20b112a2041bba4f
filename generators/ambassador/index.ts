import { Capabilities, defineGenerator } from '../types';
import { check, claims } from './check';
import { AmbassadorOptions, optionsSchema } from './options';
import { render } from './render';
import { simulate } from './simulate';

/** A canary Mapping carries a weight out of 100 and nothing else (Argo's Ambassador provider neither). */
export const capabilities: Capabilities = {
  weight: true,
  customWeightTotal: false,
  headerMatchTypes: [],
  cookieMatch: false,
  queryMatch: false,
  pathMatch: false,
  methodMatch: false,
  conditionsPerMatch: 0,
  matchesPerStep: 0,
  matchWithWeight: false,
  namedHeaderRoutes: false,
  mirror: false,
  requestHeaderModifier: false,
};

export default defineGenerator<AmbassadorOptions>({
  id: 'ambassador',
  summary:
    'Ambassador / Emissary: a <mapping>-canary Mapping to the canary Service with weight W beside each base Mapping',
  capabilities,
  optionsSchema,
  check,
  unsupported: (t) =>
    Number.isInteger((t.weight * 100) / t.weightTotal)
      ? []
      : [`weight ${t.weight} (Mapping weights are whole numbers out of 100)`],
  claims,
  render,
  simulate,
});

export type { AmbassadorOptions } from './options';
