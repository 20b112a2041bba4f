import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { GeneratorContext, RouteClaim } from '../../src/contract/generator';
import { findIngress, ingressClass, ingressPaths, isCanaryIngress } from '../_kit/ingress';
import { canaryIngressName, noPathToStable } from '../_kit/canary-ingress';
import { NginxOptions, annotationKey, stepOwnedKeys, userAnnotations } from './options';
import { optionOrigin } from '../_kit/option-origin';
import { checkSharedUpstreams } from './shared-upstream';

type Ctx = GeneratorContext<NginxOptions>;

/** Every listed Ingress exists, is a stable (non-canary) Ingress and routes at least one path to the stable Service. */
export function check(ctx: Ctx): Diagnostic[] {
  const out: Diagnostic[] = [...checkUserAnnotations(ctx), ...checkSharedUpstreams(ctx)];
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
    out.push(...checkIngress(ctx, source));
    out.push(...checkOverlap(ingressClaims(ctx, source), name, owners));
  }
  return out;
}

function checkIngress(ctx: Ctx, source: SourceObject): Diagnostic[] {
  const name = source.object.metadata.name;
  const prefix = ctx.options.annotationPrefix;
  if (isCanaryIngress(source.object, prefix)) {
    return [
      diagnosticAt(
        source.origin,
        `Ingress "${name}" is itself a canary Ingress (${prefix}/canary: "true"); name the stable Ingress instead`,
      ),
    ];
  }
  const out: Diagnostic[] = [...checkClass(source, prefix)];
  const unreachable = noPathToStable(source, ctx.stableService);
  if (unreachable) out.push(unreachable);
  const taken = findIngress(ctx.resources, canaryIngressName(name), source.object.metadata.namespace);
  if (taken) {
    out.push(
      diagnosticAt(
        taken.origin,
        `Ingress "${canaryIngressName(name)}" already exists in the app's manifests; rollgen renders the canary of "${name}" under that name, so remove or rename it`,
      ),
    );
  }
  return out;
}

/** Class names of other Ingress controllers, which ignore ingress-nginx's canary annotations. */
const OTHER_CONTROLLERS = /traefik|alb|higress|mse|apisix|kong|haproxy|contour|gce|azure|ambassador|emissary|istio/i;

/**
 * An Ingress of another controller (its class says so) would serve the canary Ingress as a second
 * plain Ingress for the same host and path: no weight, no match. Warned, since class names are free.
 */
function checkClass(source: SourceObject, prefix: string): Diagnostic[] {
  const cls = ingressClass(source.object);
  if (!cls || /nginx/i.test(cls) || !OTHER_CONTROLLERS.test(cls)) return [];
  const byName =
    typeof (source.object.spec as { ingressClassName?: unknown } | undefined)?.ingressClassName === 'string';
  const at = source.locate(
    byName ? ['spec', 'ingressClassName'] : ['metadata', 'annotations', 'kubernetes.io/ingress.class'],
  );
  return [
    diagnosticAt(
      at,
      `Ingress "${source.object.metadata.name}" has class "${cls}", which looks like another controller's: it ignores the ${prefix}/canary annotations, so the canary Ingress would take traffic unsplit; use the provider for that controller, or an ingress-nginx class`,
      'warning',
    ),
  ];
}

/** Two listed Ingresses serving the same host+path would get two canaries there; ingress-nginx honours only one. */
function checkOverlap(claims: readonly RouteClaim[], name: string, owners: Map<string, string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const claim of claims) {
    const owner = owners.get(claim.key);
    if (owner !== undefined && owner !== name) {
      out.push(
        diagnosticAt(
          claim.origin,
          `Ingress "${name}" serves the same host and path as Ingress "${owner}" (${claim.key}); ingress-nginx allows one canary per host+path`,
        ),
      );
    }
    if (owner === undefined) owners.set(claim.key, name);
  }
  return out;
}

function checkUserAnnotations(ctx: Ctx): Diagnostic[] {
  const user = userAnnotations(ctx.options);
  // Argo's additionalIngressAnnotations keys are written without the prefix: the key as written.
  const written = (key: string) =>
    Object.keys(ctx.options.additionalIngressAnnotations).find(
      (k) => k === key || annotationKey(ctx.options.annotationPrefix, k) === key,
    );
  return stepOwnedKeys(ctx.options.annotationPrefix)
    .filter((key) => key in user)
    .map((key) =>
      diagnosticAt(
        optionOrigin(ctx, 'additionalIngressAnnotations', written(key) ?? key),
        `annotation ${key} is set per step by rollgen; the value in the rollout's nginx annotations is ignored`,
        'warning',
      ),
    );
}

/** One claim per host+path of each listed Ingress that the stable Service serves. */
export function claims(ctx: Ctx): RouteClaim[] {
  const seen = new Set<string>();
  const out: RouteClaim[] = [];
  for (const name of ctx.options.ingresses) {
    const source = findIngress(ctx.resources, name, ctx.rollout.namespace);
    if (!source || isCanaryIngress(source.object, ctx.options.annotationPrefix)) continue;
    for (const claim of ingressClaims(ctx, source)) {
      if (seen.has(claim.key)) continue;
      seen.add(claim.key);
      out.push(claim);
    }
  }
  return out;
}

function ingressClaims(ctx: Ctx, source: SourceObject): RouteClaim[] {
  const klass = ingressClass(source.object) ?? 'default';
  const name = source.object.metadata.name;
  return ingressPaths(source.object)
    .filter((p) => p.service === ctx.stableService)
    .map((p) => ({
      key: `ingress-nginx:${klass}:${p.host ?? '*'}:${p.path}`,
      description: `canary Ingress "${canaryIngressName(name)}" for host ${p.host ?? '*'} path ${p.path} (Ingress "${name}", app ${ctx.app})`,
      origin: source.locate(['spec', 'rules', p.rule, 'http', 'paths', p.index]),
    }));
}
