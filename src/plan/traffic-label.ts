import { PlannedStep, TrafficState } from '../model/plan';

/**
 * What a step's traffic is, in words: the routed share, or what the pods make of it. One label for
 * `plan`, the PR body and the line about the next step.
 */

/** A step that routes nothing to the canary: the Services select both tracks, and pods share traffic by count. */
export const BY_PODS = 'by pods';

/** A routed step whose canary took every pod (see servesAllTraffic). */
export const ALL_TRAFFIC = 'all (no stable pod)';

/** The routed share: `20%`, or `5/1000` for a weight total other than 100. */
export function weightOf(t: Pick<TrafficState, 'weight' | 'weightTotal'>): string {
  return t.weightTotal === 100 ? `${t.weight}%` : `${t.weight}/${t.weightTotal}`;
}

export function sharedByPods(s: PlannedStep): boolean {
  return s.serviceSelection === 'shared' && s.traffic.weight === 0 && s.traffic.matches.length === 0;
}

/**
 * A routed step whose canary took every pod (partition style with few replicas: 60% of 2 is 2)
 * leaves the stable Service no pod of its own. It then selects the canary's (plan.ts: 'shared',
 * never an empty Service), so the new version serves all traffic, not the share the step routes.
 */
export function servesAllTraffic(s: PlannedStep): boolean {
  const { weight, weightTotal, matches } = s.traffic;
  const routes = weight > 0 || matches.length > 0;
  return (
    routes && weight < weightTotal && s.stableReplicas === 0 && s.canaryReplicas > 0 && s.serviceSelection === 'shared'
  );
}

/** BY_PODS, ALL_TRAFFIC or the routed share. */
export function trafficLabel(s: PlannedStep): string {
  if (sharedByPods(s)) return BY_PODS;
  const experiments = (s.traffic.experiments ?? []).reduce((n, e) => n + e.weight, 0);
  const extra = experiments > 0 ? ` + ${weightOf({ ...s.traffic, weight: experiments })} experiment` : '';
  return servesAllTraffic(s) ? ALL_TRAFFIC : weightOf(s.traffic) + extra;
}
