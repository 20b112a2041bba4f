import { percentOf } from '../_kit/weight-only';
import { isObject, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import { Ctx, DEFAULT_API_VERSION, rootService, splitName } from './options';

/**
 * The TrafficSplit of one state, in every state (Argo keeps it at weight 0 between rollouts):
 * requests to the root Service go W to the canary Service and the rest to the stable Service.
 * The canary backend is listed only while it gets a share, so a TrafficSplit never names a canary
 * Service that is not there yet or any more. A TrafficSplit in the app's manifests gives the API
 * version, metadata and any other fields (v1alpha3 `matches`); rollgen owns `service` and
 * `backends`. v1alpha1 weights are Kubernetes quantities (strings), later versions integers.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const name = splitName(ctx);
  const source = ctx.resources.find('TrafficSplit', name, ctx.rollout.namespace)?.object;
  const apiVersion = source?.apiVersion ?? DEFAULT_API_VERSION;
  const weight = (w: number): number | string => (apiVersion.endsWith('/v1alpha1') ? String(w) : w);
  const canary = percentOf(traffic);
  // Argo's experiment weights: each experiment Service takes its share from the stable one.
  const experiments = (traffic.experiments ?? []).map((e) => ({
    service: e.service,
    percent: percentOf({ ...traffic, weight: e.weight }),
  }));
  const taken = experiments.reduce((n, e) => n + e.percent, 0);
  const backends = [
    ...(canary > 0 ? [{ service: ctx.canaryService, weight: weight(canary) }] : []),
    ...experiments.map((e) => ({ service: e.service, weight: weight(e.percent) })),
    { service: ctx.stableService, weight: weight(100 - canary - taken) },
  ];
  const metadata = source?.metadata ?? {
    name,
    ...(ctx.rollout.namespace !== undefined ? { namespace: ctx.rollout.namespace } : {}),
  };
  const spec = source && isObject(source.spec) ? source.spec : {};
  return [{ apiVersion, kind: 'TrafficSplit', metadata, spec: { ...spec, service: rootService(ctx), backends } }];
}
