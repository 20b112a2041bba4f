import { KubeMetadata, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import type { GeneratorContext } from '../../src/contract/generator';
import { canaryIngressOf } from '../_kit/canary-ingress';
import {
  CANARY,
  CANARY_BY_COOKIE,
  CANARY_BY_HEADER,
  CANARY_BY_HEADER_VALUE,
  CANARY_WEIGHT,
  canaryName,
  headerCanaryName,
  isOwnedKey,
  ORDER,
} from './annotations';
import { unsupportedFeatures } from './features';
import type { AlbOptions } from './options';
import { demandId } from './orders';
import { repoOrders, stableIngress } from './repo-orders';

type Ctx = GeneratorContext<AlbOptions>;
type Annotations = Record<string, string>;

/**
 * Per stable Ingress, while the state routes anything to the canary: `<ing>-canary` with the weight
 * (or, without a weight, the header/cookie rules), plus `<ing>-canary-header` with the header/cookie
 * rules when the step also has a weight, as ALB cannot put both on one Ingress. Orders come from the
 * repo-wide allocation over `ctx.peers`. Nothing in the stable-only state; the stable is never changed.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const unsupported = unsupportedFeatures(traffic);
  if (unsupported.length > 0)
    throw new Error(`aliyun-alb cannot express this traffic state: ${unsupported.join('; ')}`);
  const weight = traffic.weight > 0 ? { [CANARY_WEIGHT]: String(traffic.weight) } : undefined;
  const match = matchAnnotations(traffic);
  if (!weight && !match) return [];
  const allocation = repoOrders(ctx.peers);
  return ctx.options.ingresses.flatMap((name) => {
    const source = stableIngress(ctx, name);
    if (!source) throw new Error(`Ingress "${name}" not found in the app's manifests`);
    const orders = allocation.orders.get(demandId({ app: ctx.app, rollout: ctx.rollout.name, ingress: name }));
    const orderOf = (canary: string): string => {
      const order = orders?.get(canary);
      if (order === undefined)
        throw new Error(`no ${ORDER} allocated for Ingress "${canary}"; rollgen validate explains why`);
      return String(order);
    };
    const main = canaryName(name);
    const out = [canaryIngress(ctx, source.object, main, { ...(weight ?? match), [ORDER]: orderOf(main) })];
    if (weight && match)
      out.unshift(
        canaryIngress(ctx, source.object, headerCanaryName(name), {
          ...match,
          [ORDER]: orderOf(headerCanaryName(name)),
        }),
      );
    return out;
  });
}

/** The one header match and one cookie match `unsupportedFeatures` allows, or undefined without matches. */
function matchAnnotations(traffic: TrafficState): Annotations | undefined {
  const header = traffic.matches.find((m) => m.headers.length > 0)?.headers[0];
  const cookie = traffic.matches.find((m) => m.cookies.length > 0)?.cookies[0];
  if (!header && !cookie) return undefined;
  return {
    ...(header ? { [CANARY_BY_HEADER]: header.name, [CANARY_BY_HEADER_VALUE]: header.value } : {}),
    ...(cookie ? { [CANARY_BY_COOKIE]: cookie.name } : {}),
  };
}

function canaryIngress(ctx: Ctx, stable: KubeObject, name: string, step: Annotations): KubeObject {
  return canaryIngressOf(
    stable,
    ctx.stableService,
    ctx.canaryService,
    canaryMetadata(stable.metadata, name, { [CANARY]: 'true', ...step }),
  );
}

/** The stable's labels and annotations (listen-ports, health checks, ...) minus the canary keys and order, then the step's (the core sorts the keys). */
function canaryMetadata(meta: KubeMetadata, name: string, step: Annotations): KubeMetadata {
  const kept = Object.entries(meta.annotations ?? {}).filter(([k]) => !isOwnedKey(k));
  const merged: Annotations = { ...Object.fromEntries(kept), ...step };
  return {
    name,
    ...(meta.namespace !== undefined ? { namespace: meta.namespace } : {}),
    ...(meta.labels !== undefined ? { labels: { ...meta.labels } } : {}),
    annotations: Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, String(v)])),
  };
}
