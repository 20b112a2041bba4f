import { Capabilities, defineGenerator } from '../types';
import { check, claims } from './check';
import { AppMeshOptions, optionsSchema } from './options';
import { render } from './render';
import { simulate, simulateHop } from './simulate';

/** VirtualRouter weighted targets out of 100, nothing else (Argo's App Mesh provider neither). */
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

export default defineGenerator<AppMeshOptions>({
  id: 'app-mesh',
  summary: 'AWS App Mesh VirtualRouter route weights between the canary and stable VirtualNodes (virtualNodeGroup)',
  capabilities,
  optionsSchema,
  check,
  unsupported: (t) =>
    Number.isInteger((t.weight * 100) / t.weightTotal)
      ? []
      : [`weight ${t.weight} (App Mesh target weights are whole numbers out of 100)`],
  claims,
  render,
  simulate,
  simulateHop,
});

export type { AppMeshOptions } from './options';
