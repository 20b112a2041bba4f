import { Capabilities, defineGenerator } from '../types';
import { check, claims } from './check';
import { optionsSchema, SmiOptions } from './options';
import { render } from './render';
import { simulate, simulateHop } from './simulate';

/** A TrafficSplit only weighs backends: no header, match or mirror routes (Argo's SMI provider neither). */
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

export default defineGenerator<SmiOptions>({
  id: 'smi',
  summary: 'SMI TrafficSplit (split.smi-spec.io v1alpha1..v1alpha3): root Service split between canary and stable',
  capabilities,
  optionsSchema,
  check,
  unsupported: (t) =>
    Number.isInteger((t.weight * 100) / t.weightTotal)
      ? []
      : [`weight ${t.weight} (TrafficSplit weights are whole numbers out of 100)`],
  claims,
  render,
  simulate,
  simulateHop,
});

export type { SmiOptions } from './options';
