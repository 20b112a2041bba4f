import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import { canaryPrefix, findIngress, ingressClass, ingressPaths } from '../_kit/ingress';
import { canaryIngressName, noPathToStable } from '../_kit/canary-ingress';
import type { GeneratorContext, RouteClaim } from '../../src/contract/generator';
import { Flavour } from './flavour';
import { HigressOptions, weightIngressName } from './options';
import { stableHeaderMatches } from './stable-header-matches';

type Ctx = GeneratorContext<HigressOptions>;

/** Every listed Ingress exists, is not itself a canary, routes a path to the stable Service, and leaves rollgen's canary names free. */
export function check(f: Flavour, ctx: Ctx): Diagnostic[] {
  const out: Diagnostic[] = [];
  const owners = new Map<string, string>();
  for (const name of ctx.options.ingresses) {
    const source = findIngress(ctx.resources, name, ctx.rollout.namespace);
    if (!source) {
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `Ingress "${name}" not found in the app's manifests; add it or fix trafficRoutings[0].ingress.name`,
        ),
      );
      continue;
    }
    out.push(...checkIngress(ctx, source), ...stableHeaderMatches(f, ctx, source));
    for (const claim of ingressClaims(f, ctx, source)) {
      const owner = owners.get(claim.key);
      if (owner !== undefined && owner !== name) {
        out.push(
          diagnosticAt(
            claim.origin,
            `Ingress "${name}" serves the same host and path as Ingress "${owner}" (${claim.key}); rollgen renders one canary per host+path`,
          ),
        );
      }
      if (owner === undefined) owners.set(claim.key, name);
    }
  }
  return out;
}

function checkIngress(ctx: Ctx, source: SourceObject): Diagnostic[] {
  const name = source.object.metadata.name;
  const prefix = canaryPrefix(source.object);
  if (prefix !== undefined) {
    return [
      diagnosticAt(
        source.origin,
        `Ingress "${name}" is itself a canary Ingress (${prefix}/canary: "true"); name the stable Ingress instead`,
      ),
    ];
  }
  const out: Diagnostic[] = [];
  const unreachable = noPathToStable(source, ctx.stableService);
  if (unreachable) out.push(unreachable);
  for (const taken of [canaryIngressName(name), weightIngressName(name)]) {
    const found = findIngress(ctx.resources, taken, source.object.metadata.namespace);
    if (found)
      out.push(
        diagnosticAt(
          found.origin,
          `Ingress "${taken}" already exists in the app's manifests; rollgen renders the canary of "${name}" under that name, so remove or rename it`,
        ),
      );
  }
  return out;
}

/** One claim per host+path that the stable Service serves, so two rollouts never canary the same route. */
export function claims(f: Flavour, ctx: Ctx): RouteClaim[] {
  const seen = new Set<string>();
  const out: RouteClaim[] = [];
  for (const name of ctx.options.ingresses) {
    const source = findIngress(ctx.resources, name, ctx.rollout.namespace);
    if (!source || canaryPrefix(source.object) !== undefined) continue;
    for (const claim of ingressClaims(f, ctx, source)) {
      if (!seen.has(claim.key)) out.push(claim);
      seen.add(claim.key);
    }
  }
  return out;
}

function ingressClaims(f: Flavour, ctx: Ctx, source: SourceObject): RouteClaim[] {
  const klass = ingressClass(source.object) ?? 'default';
  const name = source.object.metadata.name;
  return ingressPaths(source.object)
    .filter((p) => p.service === ctx.stableService)
    .map((p) => ({
      key: `${f.id}:${klass}:${p.host ?? '*'}:${p.path}`,
      description: `canary Ingress "${canaryIngressName(name)}" for host ${p.host ?? '*'} path ${p.path} (Ingress "${name}", app ${ctx.app})`,
      origin: source.locate(['spec', 'rules', p.rule, 'http', 'paths', p.index]),
    }));
}
