import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import { isObject } from '../../src/model/kube';
import type { RouteClaim } from '../../src/contract/generator';
import { checkWeights } from './check-weights';
import { Ctx, findMirroring, findWeighted, isServiceRef, listOf, specOf, where } from './options';

/** The weighted TraefikService exists and names the stable Service; mirror steps need a mirroring TraefikService around it. */
export function check(ctx: Ctx): Diagnostic[] {
  const name = ctx.options.weightedTraefikServiceName;
  if (!ctx.stableService || ctx.stableService === ctx.canaryService)
    return [
      diagnosticAt(ctx.optionsOrigin, `${where(ctx)}: traefik needs canaryService and stableService (two Services)`),
    ];
  const found = findWeighted(ctx);
  if (!found)
    return [
      diagnosticAt(
        ctx.optionsOrigin,
        `${where(ctx)}: TraefikService "${name}" (traefik.io or traefik.containo.us) not found in the app's manifests; add it or fix weightedTraefikServiceName`,
      ),
    ];
  const weighted = specOf(found.object).weighted;
  if (!isObject(weighted) || !listOf(weighted.services).some((s) => isServiceRef(s, ctx.stableService)))
    return [
      diagnosticAt(
        found.origin,
        `${where(ctx)}: TraefikService "${name}" has no spec.weighted.services entry for the stable Service "${ctx.stableService}"; add one`,
      ),
    ];
  const missing = listOf(weighted.services).filter(
    (e) =>
      (e.kind === undefined || e.kind === 'Service') &&
      e.name !== ctx.canaryService &&
      !ctx.resources.find(
        'Service',
        String(e.name),
        typeof e.namespace === 'string' ? e.namespace : found.object.metadata.namespace,
      ),
  );
  // Another app's Service may be meant; a typo or a stale canary name would break the whole TraefikService.
  const out = missing.map((e) =>
    diagnosticAt(
      found.origin,
      `${where(ctx)}: TraefikService "${name}" names Service "${String(e.name)}", which is neither in the app's manifests nor the canary Service "${ctx.canaryService}"; if it does not exist Traefik refuses the whole TraefikService`,
      'warning',
    ),
  );
  out.push(...checkWeights(ctx, found));
  const mirrors = ctx.rollout.steps.some((s) => s.mirrorRoutes.length > 0);
  if (mirrors && !findMirroring(ctx))
    return [
      ...out,
      diagnosticAt(
        ctx.optionsOrigin,
        `${where(ctx)}: setMirrorRoute needs a TraefikService with spec.mirroring {name: ${name}, kind: TraefikService} that the IngressRoute routes to; add one`,
      ),
    ];
  return out;
}

/** The weighted TraefikService is this rollout's alone. */
export function claims(ctx: Ctx): RouteClaim[] {
  const name = ctx.options.weightedTraefikServiceName;
  return [
    {
      key: `traefik:${ctx.rollout.namespace ?? ''}/${name}`,
      description: `weighted TraefikService "${name}"`,
      origin: findWeighted(ctx)?.origin ?? ctx.optionsOrigin,
    },
  ];
}
