import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import { Ctx, isServiceRef, Json, listOf, specOf, where } from './options';
import { writtenWeight } from './weights';

/**
 * The weights of the weighted list as rollgen reads them (weights.ts): whole numbers, a stable
 * entry that carries traffic when other backends share the list, and the share those backends keep
 * said once, since each step's weight then applies to the stable entry's share only.
 */
export function checkWeights(ctx: Ctx, found: SourceObject): Diagnostic[] {
  const name = ctx.options.weightedTraefikServiceName;
  const services = listOf((specOf(found.object).weighted as Json).services);
  const at = (i: number, ...field: string[]) => found.locate(['spec', 'weighted', 'services', i, ...field]);
  const out: Diagnostic[] = [];
  services.forEach((e, i) => {
    if (e.weight !== undefined && !(Number.isInteger(e.weight) && (e.weight as number) >= 0))
      out.push(
        diagnosticAt(
          at(i, 'weight'),
          `${where(ctx)}: TraefikService "${name}": weight ${JSON.stringify(e.weight)} is not a whole number of 0 or more, which Traefik refuses; write a whole number`,
        ),
      );
    if (isServiceRef(e, ctx.canaryService) && typeof e.weight === 'number' && e.weight > 0)
      out.push(
        diagnosticAt(
          at(i, 'weight'),
          `${where(ctx)}: TraefikService "${name}": rollgen sets the canary entry's weight at every step (as Argo does), so weight ${e.weight} written here is not used; remove it`,
          'warning',
        ),
      );
  });
  if (out.some((d) => d.severity === 'error')) return out;
  const stableAt = services.findIndex((e) => isServiceRef(e, ctx.stableService));
  const others = services
    .map((e, i) => ({ e, i }))
    .filter(({ e, i }) => i !== stableAt && !isServiceRef(e, ctx.canaryService));
  if (others.length === 0) return out;
  const stable = writtenWeight(services[stableAt]);
  const total = stable + others.reduce((sum, { e }) => sum + writtenWeight(e), 0);
  if (stable === 0)
    return [
      ...out,
      diagnosticAt(
        at(stableAt, 'weight'),
        `${where(ctx)}: TraefikService "${name}": the stable Service "${ctx.stableService}" has weight 0 beside other backends, so none of this TraefikService's traffic reaches the app and no step could move any to the canary; give it a weight`,
      ),
    ];
  // Other entries all at weight 0 take no share: nothing to say.
  if (total === stable) return out;
  const kept = others.map(({ e }) => `${String(e.name)} ${percent(writtenWeight(e) / total)}`).join(', ');
  out.push(
    diagnosticAt(
      at(others[0].i),
      `${where(ctx)}: TraefikService "${name}" also sends traffic to other backends (${kept} as written), which keep that share at every step: each step's weight splits the ${percent(stable / total)} of "${ctx.stableService}" between it and the canary (${example(ctx, stable / total)})`,
      'warning',
    ),
  );
  return out;
}

/** What the rollout's first weighted step means for all requests, e.g. `20% is 15% of all requests`. */
function example(ctx: Ctx, pairShare: number): string {
  const step = ctx.rollout.steps.find((s) => (s.weight ?? 0) > 0);
  const w = (step?.weight ?? 20) / ctx.rollout.traffic.weightTotal;
  return `a weight of ${percent(w)} is ${percent(w * pairShare)} of all requests`;
}

const percent = (share: number): string => `${Number((share * 100).toFixed(1))}%`;
