import { Capabilities, defineGenerator } from '../types';
import { weightOnlyCapabilities, wholePercentProblems } from '../weight-only';
import { check, claims } from './check';
import { optionsSchema, SmiOptions } from './options';
import { render } from './render';
import { simulate, simulateHop } from './simulate';

/** A TrafficSplit only weighs backends: no header, match or mirror routes (Argo's SMI provider neither). */
export const capabilities: Capabilities = weightOnlyCapabilities;

export default defineGenerator<SmiOptions>({
  id: 'smi',
  summary: 'SMI TrafficSplit (split.smi-spec.io v1alpha1..v1alpha3): root Service split between canary and stable',
  capabilities,
  optionsSchema,
  check,
  unsupported: (t) => wholePercentProblems(t, 'TrafficSplit weights'),
  claims,
  render,
  simulate,
  simulateHop,
});

export type { SmiOptions } from './options';
