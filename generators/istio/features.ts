import type { TrafficState } from '../../src/model/plan';

/**
 * What an Istio VirtualService cannot say, beyond `capabilities`: integer weights out of 100, no
 * prefix match on query parameters (StringMatch there is exact or regex), and a match with no
 * condition would send everything to the canary, which is a weight of 100 written by mistake.
 */
export function unsupportedFeatures(traffic: TrafficState): string[] {
  const out: string[] = [];
  if (!Number.isInteger(traffic.weight))
    out.push(`weight ${traffic.weight} is not a whole number (Istio destination weights are integers)`);
  const all = [...traffic.matches.map((m, i) => ({ m, label: `match ${i + 1}` }))];
  for (const r of [...traffic.headerRoutes, ...traffic.mirrorRoutes])
    r.matches.forEach((m, i) => all.push({ m, label: `route "${r.name}" match ${i + 1}` }));
  for (const { m, label } of all) {
    for (const q of m.queryParams)
      if (q.type === 'Prefix')
        out.push(
          `${label}: query parameter "${q.name}" with type Prefix (Istio matches query parameters exact or regex)`,
        );
    if (m.cookies.length > 0) out.push(`${label}: cookie "${m.cookies[0].name}" (Istio has no cookie match)`);
    const conditions =
      m.headers.length + m.queryParams.length + m.cookies.length + (m.path ? 1 : 0) + (m.method ? 1 : 0);
    if (conditions === 0)
      out.push(`${label} has no condition, so it would send every request to the canary; use a weight instead`);
  }
  for (const r of traffic.mirrorRoutes) {
    if (r.percentage < 0 || r.percentage > 100)
      out.push(`mirror route "${r.name}" percentage ${r.percentage} (0 to 100)`);
  }
  return out;
}
