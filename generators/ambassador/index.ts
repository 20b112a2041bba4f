import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { weightOnlyCapabilities, wholePercentProblems } from '../_kit/weight-only';
import { check, claims } from './check';
import { inputs } from './inputs';
import { AmbassadorOptions, optionsSchema } from './options';
import { render } from './render';
import { simulate } from './simulate';

/** A canary Mapping carries a weight out of 100 and nothing else (Argo's Ambassador provider neither). */
export const capabilities: Capabilities = weightOnlyCapabilities;

export default defineGenerator<AmbassadorOptions>({
  id: 'ambassador',
  summary:
    'Ambassador / Emissary: a <mapping>-canary Mapping to the canary Service with weight W beside each base Mapping',
  capabilities,
  optionsSchema,
  inputs,
  check,
  unsupported: (t) => wholePercentProblems(t, 'Mapping weights'),
  claims,
  render,
  simulate,
});

export type { AmbassadorOptions } from './options';
