import type { Diagnostic } from '../../src/diagnostics';
import { diagnosticAt } from '../../src/diagnostics';
import { cloneJson, KubeMetadata, KubeObject } from '../../src/model/kube';
import type { SourceObject } from '../../src/model/resource-set';
import { backendService, ingressPaths, ingressRules, ingressSpec, rulePaths } from './ingress';

/** The canary Ingress every Ingress provider writes: a copy of the stable Ingress routing to the canary Service. */

/** PRODUCT.md: the canary Ingress of `<ingress>` is `<ingress>-canary`. */
export function canaryIngressName(stableIngress: string): string {
  return `${stableIngress}-canary`;
}

/**
 * A canary copy of a stable Ingress for every ingress provider: its class and TLS, the paths to
 * the stable Service pointed at the canary Service, and the provider's metadata.
 */
export function canaryIngressOf(
  stable: KubeObject,
  stableService: string,
  canaryService: string,
  metadata: KubeMetadata,
): KubeObject {
  const rules = canaryRules(stable, stableService, canaryService);
  if (rules.length === 0)
    throw new Error(`Ingress "${stable.metadata.name}" has no path to the stable Service "${stableService}"`);
  const spec = ingressSpec(stable);
  return {
    apiVersion: stable.apiVersion,
    kind: stable.kind,
    metadata: withoutSideEffects(metadata),
    spec: {
      ...(spec.ingressClassName !== undefined ? { ingressClassName: spec.ingressClassName } : {}),
      ...(spec.tls !== undefined ? { tls: cloneJson(spec.tls) } : {}),
      rules,
    },
  };
}

/**
 * Annotations that make another controller act on every Ingress carrying them (a certificate, a DNS
 * record); a canary copy must not repeat them, or two Ingresses ask for the same thing.
 */
const SIDE_EFFECT_PREFIXES = ['cert-manager.io/', 'acme.cert-manager.io/', 'external-dns.alpha.kubernetes.io/'];

function withoutSideEffects(metadata: KubeMetadata): KubeMetadata {
  const annotations = Object.entries(metadata.annotations ?? {}).filter(
    ([k]) => !SIDE_EFFECT_PREFIXES.some((p) => k.startsWith(p)),
  );
  return { ...metadata, annotations: Object.fromEntries(annotations) };
}

/** A canary Ingress of a stable Ingress with no path to the stable Service would route nothing: refused at plan time. */
export function noPathToStable(source: SourceObject, stableService: string): Diagnostic | undefined {
  if (ingressPaths(source.object).some((p) => p.service === stableService)) return undefined;
  return diagnosticAt(
    source.origin,
    `Ingress "${source.object.metadata.name}" has no path whose backend is the stable Service "${stableService}", so its canary Ingress would route nothing; point a path at that Service or pick another Ingress`,
  );
}

/** Rules keep only the paths backed by the stable Service, pointed at the canary Service; empty rules go. */
export function canaryRules(
  stable: KubeObject,
  stableService: string,
  canaryService: string,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const rule of ingressRules(stable)) {
    const paths = rulePaths(rule)
      .filter((p) => backendService(p) === stableService)
      .map((p) => retarget(p, canaryService));
    if (paths.length === 0) continue;
    out.push({ ...(rule.host !== undefined ? { host: rule.host } : {}), http: { paths } });
  }
  return out;
}

function retarget(path: Readonly<Record<string, unknown>>, service: string): Record<string, unknown> {
  const copy = cloneJson(path) as { backend: { service: { name: string } } };
  copy.backend.service.name = service;
  return copy;
}
