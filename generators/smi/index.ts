import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { weightOnlyCapabilities, wholePercentProblems } from '../_kit/weight-only';
import { check, claims } from './check';
import { inputs } from './inputs';
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
  inputs,
  check,
  unsupported: (t) => wholePercentProblems(t, 'TrafficSplit weights'),
  claims,
  render,
  simulate,
  simulateHop,
});

export type { SmiOptions } from './options';
