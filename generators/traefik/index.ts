import type { TrafficState } from '../../src/model/plan';
import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { weightOnlyCapabilities, wholePercentProblems } from '../_kit/weight-only';
import { check, claims } from './check';
import { inputs } from './inputs';
import { optionsSchema, TraefikOptions } from './options';
import { render } from './render';
import { simulate } from './simulate';

/**
 * A weighted TraefikService weighs Services out of 100 (Argo writes integer weights); a mirroring
 * TraefikService copies a percentage of every request it gets. Neither can select requests by
 * header, so no header routes, and a mirror route must match every request (`match: []`).
 */
export const capabilities: Capabilities = { ...weightOnlyCapabilities, mirror: true };

function unsupported(t: TrafficState): string[] {
  const out: string[] = wholePercentProblems(t, 'TraefikService weights');
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
  inputs,
  check,
  unsupported,
  claims,
  render,
  simulate,
});

export type { TraefikOptions } from './options';
