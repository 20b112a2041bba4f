import { KubeObject, cloneJson, isObject } from '../model/kube';
import { AntiAffinitySpec } from '../model/rollout';
import { TrackLabel } from '../model/track';

type Json = Record<string, unknown>;

/**
 * Argo canary antiAffinity: canary pods avoid nodes that run stable pods, preferred (with the
 * user's weight) or required, appended to whatever affinity the pod template has. Argo selects the
 * stable pods by their ReplicaSet hash; rollgen by the Deployment's selector plus the stable track.
 */
export function withAntiAffinity(canary: KubeObject, rule: AntiAffinitySpec, track: TrackLabel): KubeObject {
  const out = cloneJson(canary) as Json & KubeObject;
  const spec = out.spec as Json;
  const selector = isObject(spec.selector) && isObject(spec.selector.matchLabels) ? spec.selector.matchLabels : {};
  const term = {
    labelSelector: { matchLabels: { ...selector, [track.key]: track.stable } },
    ...(canary.metadata.namespace ? { namespaces: [canary.metadata.namespace] } : {}),
    topologyKey: 'kubernetes.io/hostname',
  };
  const template = spec.template as Json;
  const podSpec = (isObject(template.spec) ? template.spec : {}) as Json;
  const affinity = (isObject(podSpec.affinity) ? podSpec.affinity : {}) as Json;
  const anti = (isObject(affinity.podAntiAffinity) ? affinity.podAntiAffinity : {}) as Json;
  const key =
    rule.preferredWeight !== undefined
      ? 'preferredDuringSchedulingIgnoredDuringExecution'
      : 'requiredDuringSchedulingIgnoredDuringExecution';
  const entry = rule.preferredWeight !== undefined ? { weight: rule.preferredWeight, podAffinityTerm: term } : term;
  const list = Array.isArray(anti[key]) ? anti[key] : [];
  podSpec.affinity = { ...affinity, podAntiAffinity: { ...anti, [key]: [...list, entry] } };
  template.spec = podSpec;
  return out;
}
