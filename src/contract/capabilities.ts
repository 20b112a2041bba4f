import type { Capabilities } from './generator';
import { RouteMatch, methodText } from '../model/rollout';
import { TrafficState } from '../model/plan';

/** Names every feature of a traffic state that a provider with these capabilities cannot express. Pure. */
export function missingFeatures(caps: Capabilities, t: TrafficState): string[] {
  const out: string[] = [];
  if (t.weight > 0 && !caps.weight) out.push(`a ${t.weight}% weight`);
  if (t.weightTotal !== 100 && !caps.customWeightTotal)
    out.push(`a weight total of ${t.weightTotal} (maxTrafficWeight)`);
  if (t.matches.length > caps.matchesPerStep)
    out.push(`${t.matches.length} ORed matches (at most ${caps.matchesPerStep})`);
  t.matches.forEach((m, i) => out.push(...matchFeatures(caps, m, `match ${i + 1}`)));
  if (t.matches.length > 0 && t.weight > 0 && !caps.matchWithWeight) out.push('matches together with a weight');
  if (t.headerRoutes.length > 0 && !caps.namedHeaderRoutes)
    out.push(`header route "${t.headerRoutes[0].name}" (setHeaderRoute)`);
  if (t.mirrorRoutes.length > 0 && !caps.mirror) out.push(`mirror route "${t.mirrorRoutes[0].name}" (setMirrorRoute)`);
  if (t.requestHeaderModifier && !caps.requestHeaderModifier) out.push('requestHeaderModifier');
  return out;
}

function matchFeatures(caps: Capabilities, m: RouteMatch, label: string): string[] {
  const out: string[] = [];
  const conditions = m.headers.length + m.queryParams.length + m.cookies.length + (m.path ? 1 : 0) + (m.method ? 1 : 0);
  if (conditions > caps.conditionsPerMatch)
    out.push(`${label}: ${conditions} ANDed conditions (at most ${caps.conditionsPerMatch})`);
  for (const h of m.headers) {
    if (!caps.headerMatchTypes.includes(h.type)) out.push(`${label}: header "${h.name}" with type ${h.type}`);
  }
  if (m.queryParams.length > 0 && !caps.queryMatch)
    out.push(`${label}: query parameter match "${m.queryParams[0].name}"`);
  if (m.cookies.length > 0 && !caps.cookieMatch) out.push(`${label}: cookie match "${m.cookies[0].name}"`);
  if (m.path && !caps.pathMatch) out.push(`${label}: path match "${m.path.value}"`);
  if (m.method && !caps.methodMatch) out.push(`${label}: method match "${methodText(m.method)}"`);
  return out;
}
