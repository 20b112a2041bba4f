import { KubeMetadata, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import type { GeneratorContext } from '../../src/contract/generator';
import { unsupportedFeatures } from './features';
import { canaryIngressName, canaryIngressOf } from '../_kit/canary-ingress';
import { findIngress } from '../_kit/ingress';
import { annotationKey, isCanaryKey, NginxOptions, userAnnotations } from './options';

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
 * The step's canary annotations. Weight only when above 0 (its total only when not 100, scaled
 * by `nginxWeight`);
 * the first header match fills canary-by-header, the first cookie match canary-by-cookie
 * (`unsupportedFeatures` guarantees there is at most one of each).
 */
export function canaryAnnotations(prefix: string, traffic: TrafficState): Record<string, string> {
  const key = (name: string): string => annotationKey(prefix, name);
  const out: Record<string, string> = { [key('canary')]: 'true' };
  if (traffic.weight > 0) {
    const { weight, total } = nginxWeight(traffic.weight, traffic.weightTotal);
    out[key('canary-weight')] = String(weight);
    if (total !== 100) out[key('canary-weight-total')] = String(total);
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

/**
 * balancer.lua reads canary-weight-total only above 100 (`weightTotal = 100; if total > 100 then
 * weightTotal = total`): a smaller total (Argo maxTrafficWeight) would count as 100. Both numbers
 * are scaled by the smallest whole factor reaching 100 or more, so the share stays W/T.
 */
export function nginxWeight(weight: number, total: number): { weight: number; total: number } {
  const factor = total >= 100 ? 1 : Math.ceil(100 / total);
  return { weight: weight * factor, total: total * factor };
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
 * Kruise: stable annotations minus its own `<prefix>/canary*` keys, then the user's, then the step's.
 * Argo copies only the legacy ingress class annotation (ingress-nginx ignores a canary Ingress's
 * other annotations) and no labels. The core sorts the keys.
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
  const annotations = Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, String(v)]));
  return {
    name: canaryIngressName(meta.name),
    ...(meta.namespace !== undefined ? { namespace: meta.namespace } : {}),
    ...(meta.labels !== undefined && !argo ? { labels: { ...meta.labels } } : {}),
    annotations,
  };
}
