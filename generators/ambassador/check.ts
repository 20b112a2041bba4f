import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { RouteClaim } from '../../src/contract/generator';
import { canaryMappingName, Ctx, findMapping, specOf, splitServiceUrl } from './options';

const where = (ctx: Ctx): string => `app ${ctx.app}, rollout ${ctx.rollout.name}`;

/** Each base Mapping exists, routes to the stable Service, has no weight of its own, and its canary name is free. */
export function check(ctx: Ctx): Diagnostic[] {
  if (!ctx.stableService || ctx.stableService === ctx.canaryService)
    return [
      diagnosticAt(ctx.optionsOrigin, `${where(ctx)}: ambassador needs canaryService and stableService (two Services)`),
    ];
  const out: Diagnostic[] = [];
  for (const name of ctx.options.mappings) {
    const found = findMapping(ctx, name);
    if (!found) {
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `${where(ctx)}: Mapping "${name}" (getambassador.io) not found in the app's manifests`,
        ),
      );
      continue;
    }
    const spec = specOf(found.object);
    if (splitServiceUrl(String(spec.service ?? '')).service !== ctx.stableService)
      out.push(
        diagnosticAt(
          found.locate(['spec', 'service']),
          `${where(ctx)}: Mapping "${name}" routes to "${String(spec.service ?? '')}", not to the stable Service "${ctx.stableService}"`,
        ),
      );
    if (spec.weight !== undefined)
      out.push(
        diagnosticAt(
          found.locate(['spec', 'weight']),
          `${where(ctx)}: Mapping "${name}" sets weight; the base Mapping takes what its canary copy leaves, so remove it`,
        ),
      );
    const taken = ctx.resources.find('Mapping', canaryMappingName(name), found.object.metadata.namespace);
    if (taken)
      out.push(
        diagnosticAt(
          taken.origin,
          `${where(ctx)}: Mapping "${canaryMappingName(name)}" already exists; rollgen renders the canary copy of "${name}" under that name, so remove or rename it`,
        ),
      );
  }
  return out;
}

/** Each base Mapping is this rollout's alone. */
export function claims(ctx: Ctx): RouteClaim[] {
  return ctx.options.mappings.map((name) => ({
    key: `ambassador:${ctx.rollout.namespace ?? ''}/${name}`,
    description: `Mapping "${name}" and its canary copy`,
    origin: findMapping(ctx, name)?.origin ?? ctx.optionsOrigin,
  }));
}
