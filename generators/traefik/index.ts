import type { TrafficState } from '../../src/plan/types';
import { Capabilities, defineGenerator } from '../types';
import { check, claims } from './check';
import { optionsSchema, TraefikOptions } from './options';
import { render } from './render';
import { simulate } from './simulate';

/**
 * A weighted TraefikService weighs Services out of 100 (Argo writes integer weights); a mirroring
 * TraefikService copies a percentage of every request it gets. Neither can select requests by
 * header, so no header routes, and a mirror route must match every request (`match: []`).
 */
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
  mirror: true,
  requestHeaderModifier: false,
};

function unsupported(t: TrafficState): string[] {
  const out: string[] = [];
  if (!Number.isInteger((t.weight * 100) / t.weightTotal))
    out.push(`weight ${t.weight} (TraefikService weights are whole numbers out of 100)`);
  for (const r of t.mirrorRoutes.filter((m) => m.matches.length > 0))
    out.push(
      `mirror route "${r.name}" with a match (a Traefik mirroring service copies a share of every request; write match: [])`,
    );
  if (t.mirrorRoutes.length > 1)
    out.push(`${t.mirrorRoutes.length} mirror routes at once (one mirroring TraefikService, one canary mirror)`);
  return out;
}

export default defineGenerator<TraefikOptions>({
  id: 'traefik',
  summary:
    'Traefik weighted TraefikService (canary and stable weights) and a canary mirror in a mirroring TraefikService',
  capabilities,
  optionsSchema,
  check,
  unsupported,
  claims,
  render,
  simulate,
});

export type { TraefikOptions } from './options';
