import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { weightOnlyCapabilities, wholePercentProblems } from '../_kit/weight-only';
import { check, claims } from './check';
import { inputs } from './inputs';
import { AppMeshOptions, optionsSchema } from './options';
import { render } from './render';
import { simulate, simulateHop } from './simulate';

/** VirtualRouter weighted targets out of 100, nothing else (Argo's App Mesh provider neither). */
export const capabilities: Capabilities = weightOnlyCapabilities;

export default defineGenerator<AppMeshOptions>({
  id: 'app-mesh',
  summary: 'AWS App Mesh VirtualRouter route weights between the canary and stable VirtualNodes (virtualNodeGroup)',
  capabilities,
  optionsSchema,
  inputs,
  check,
  unsupported: (t) => wholePercentProblems(t, 'App Mesh target weights'),
  claims,
  render,
  simulate,
  simulateHop,
});

export type { AppMeshOptions } from './options';
