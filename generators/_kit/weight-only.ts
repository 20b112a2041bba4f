import type { TrafficState } from '../../src/model/plan';
import type { Capabilities } from '../../src/contract/generator';

/** A provider that only weighs two backends out of 100 (SMI, Ambassador, App Mesh; Traefik and APISIX add to it). */
export const weightOnlyCapabilities: Capabilities = {
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

/** The step's weight as a whole percentage, as these providers write it; a problem sentence otherwise. */
export function wholePercentProblems(t: TrafficState, what: string): string[] {
  return Number.isInteger((t.weight * 100) / t.weightTotal)
    ? []
    : [`weight ${t.weight} of ${t.weightTotal} (${what} are whole numbers out of 100)`];
}

/** The weight of a state in percent, as written to the provider's object. */
export const percentOf = (t: TrafficState): number => Math.round((t.weight * 100) / t.weightTotal);
