import { cloneJson, isObject, KubeObject } from '../../src/model/kube';
import { hasCanaryRoutes, TrafficState } from '../../src/model/plan';
import { defaultTrackLabel } from '../../src/model/track';
import type { GeneratorContext } from '../../src/contract/generator';
import type { DrTarget, IstioOptions } from './options';
import { asList, destinationOf, findIstio, Json, PROTOCOLS, Roles, rulesOf, shortHost, specOf } from './vs';

/**
 * While any route reaches the canary: the canary subset selects the canary track (plus Kruise's
 * patchPodTemplateMetadata labels, as its script expects `istio.service.tag: gray` on canary pods)
 * and every stable subset also selects the stable track, so it never lands on canary pods. Other
 * subsets and every other field are kept. In the stable-only state the object is as written.
 */
export function renderDestinationRule(
  ctx: GeneratorContext<IstioOptions>,
  target: DrTarget,
  virtualServices: readonly KubeObject[],
  roles: Roles,
  traffic: TrafficState,
): KubeObject {
  const found = findIstio(ctx.resources, 'DestinationRule', target);
  if (!found) throw new Error(`DestinationRule "${target.name}" not found in the app's manifests`);
  const dr = found.object;
  if (!hasCanaryRoutes(traffic)) return dr;
  const track = ctx.track ?? defaultTrackLabel;
  const stable =
    target.stableSubset !== undefined
      ? [target.stableSubset]
      : stableSubsets(virtualServices, roles, shortHost(specOf(dr).host));
  const patch = target.stableSubset === undefined ? ctx.rollout.canaryPodMetadata.labels : {};
  const subsets = asList(specOf(dr).subsets).map((s) => cloneJson(s));
  const canaryLabels = { ...patch, [track.key]: track.canary };
  let canary = subsets.find((s) => s.name === target.canarySubset);
  if (!canary) subsets.push((canary = { name: target.canarySubset, labels: {} }));
  canary.labels = { ...labelsOf(canary), ...canaryLabels };
  for (const s of subsets)
    if (stable.includes(String(s.name))) s.labels = { ...labelsOf(s), [track.key]: track.stable };
  return { ...dr, spec: { ...specOf(dr), subsets } };
}

const labelsOf = (subset: Json): Json => (isObject(subset.labels) ? subset.labels : {});

/** Kruise names no stable subset: the subsets its stable destinations to this host use. */
function stableSubsets(virtualServices: readonly KubeObject[], roles: Roles, host: string): string[] {
  const out = new Set<string>();
  for (const vs of virtualServices) {
    for (const p of PROTOCOLS) {
      for (const rule of rulesOf(vs, p)) {
        for (const d of asList(rule.route).map(destinationOf)) {
          if (roles.isStable(d) && !roles.isCanary(d) && typeof d.subset === 'string' && shortHost(d.host) === host)
            out.add(d.subset);
        }
      }
    }
  }
  return [...out].sort();
}
