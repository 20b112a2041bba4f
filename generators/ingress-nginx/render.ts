import { cloneJson, KubeMetadata, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/plan/types';
import type { GeneratorContext } from '../types';
import { unsupportedFeatures } from './features';
import { backendService, findIngress, ingressRules, ingressSpec, rulePaths } from './ingress';
import { annotationKey, canaryIngressName, isCanaryKey, NginxOptions, userAnnotations } from './options';

export { unsupportedFeatures } from './features';

/**
 * One `<ingress>-canary` per stable Ingress while the state routes anything to the canary;
 * nothing in the stable-only state, so the canary Ingress is absent. The stable Ingress is
 * never returned, hence never changed.
 */
export function render(ctx: GeneratorContext<NginxOptions>, traffic: TrafficState): KubeObject[] {
  const unsupported = unsupportedFeatures(traffic);
  if (unsupported.length > 0) {
    throw new Error(`ingress-nginx cannot express this traffic state: ${unsupported.join('; ')}`);
  }
  if (traffic.weight <= 0 && traffic.matches.length === 0) return [];
  const canary = canaryAnnotations(ctx.options.annotationPrefix, traffic);
  return ctx.options.ingresses.map((name) => {
    const source = findIngress(ctx.resources, name, ctx.rollout.namespace);
    if (!source) throw new Error(`Ingress "${name}" not found in the app's manifests`);
    return canaryIngress(ctx, source.object, canary);
  });
}

/**
 * The step's canary annotations. Weight only when above 0 (its total only when not 100);
 * the first header match fills canary-by-header, the first cookie match canary-by-cookie
 * (`unsupportedFeatures` guarantees there is at most one of each).
 */
export function canaryAnnotations(prefix: string, traffic: TrafficState): Record<string, string> {
  const key = (name: string): string => annotationKey(prefix, name);
  const out: Record<string, string> = { [key('canary')]: 'true' };
  if (traffic.weight > 0) {
    out[key('canary-weight')] = String(traffic.weight);
    if (traffic.weightTotal !== 100) out[key('canary-weight-total')] = String(traffic.weightTotal);
  }
  const header = traffic.matches.find((m) => m.headers.length > 0)?.headers[0];
  if (header) {
    out[key('canary-by-header')] = header.name;
    out[key(header.type === 'RegularExpression' ? 'canary-by-header-pattern' : 'canary-by-header-value')] =
      header.value;
  }
  const cookie = traffic.matches.find((m) => m.cookies.length > 0)?.cookies[0];
  if (cookie) out[key('canary-by-cookie')] = cookie.name;
  return out;
}

function canaryIngress(
  ctx: GeneratorContext<NginxOptions>,
  stable: KubeObject,
  canary: Record<string, string>,
): KubeObject {
  const argo = ctx.rollout.format === 'argo';
  return canaryIngressOf(
    stable,
    ctx.stableService,
    ctx.canaryService,
    canaryMetadata(stable, ctx.options, canary, argo),
  );
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
 * Kruise: stable annotations minus its own `<prefix>/canary*` keys, then the user's, then the step's.
 * Argo copies only the legacy ingress class annotation (ingress-nginx ignores a canary Ingress's
 * other annotations) and no labels. Keys sorted.
 */
function canaryMetadata(
  stable: KubeObject,
  options: NginxOptions,
  canary: Record<string, string>,
  argo: boolean,
): KubeMetadata {
  const meta = stable.metadata;
  const kept = Object.entries(meta.annotations ?? {}).filter(([k]) =>
    argo ? k === 'kubernetes.io/ingress.class' : !isCanaryKey(options.annotationPrefix, k),
  );
  const merged: Record<string, string> = { ...Object.fromEntries(kept), ...userAnnotations(options), ...canary };
  const annotations = Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((k) => [k, String(merged[k])]),
  );
  return {
    name: canaryIngressName(meta.name),
    ...(meta.namespace !== undefined ? { namespace: meta.namespace } : {}),
    ...(meta.labels !== undefined && !argo ? { labels: { ...meta.labels } } : {}),
    annotations,
  };
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
