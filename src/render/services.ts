import { KubeObject, cloneJson, isObject } from '../model/kube';
import { TrackLabel, withPruneLast } from '../model/track';

type Json = Record<string, unknown>;

/** Fields the API server assigns per Service; a copy must not carry them (as Kruise clears them). */
const ASSIGNED_SPEC_FIELDS = [
  'clusterIP',
  'clusterIPs',
  'externalIPs',
  'loadBalancerIP',
  'ipFamilies',
  'ipFamilyPolicy',
  'healthCheckNodePort',
];

/** Adds the track value to a Service selector; `undefined` leaves the user's selector (adoption, shared steps). */
export function withTrackSelector(
  service: KubeObject,
  track: TrackLabel,
  value: string | undefined,
  extra: Readonly<Record<string, string>> = {},
): KubeObject {
  if (value === undefined) return service;
  const out = cloneJson(service) as Json & KubeObject;
  const spec = { ...(isObject(out.spec) ? out.spec : {}) };
  const selector = isObject(spec.selector) ? spec.selector : {};
  spec.selector = { ...selector, ...pick(extra, Object.keys(selector)), [track.key]: value };
  return { ...out, spec };
}

/** `<service>-canary`: a copy of the stable Service selecting canary pods only. */
export function renderCanaryService(
  stable: KubeObject,
  name: string,
  track: TrackLabel,
  podLabels: Readonly<Record<string, string>>,
): KubeObject {
  const copy = cloneJson(stable) as Json & KubeObject;
  const spec: Json = { ...(isObject(copy.spec) ? copy.spec : {}) };
  for (const field of ASSIGNED_SPEC_FIELDS) delete spec[field];
  if (Array.isArray(spec.ports)) spec.ports = spec.ports.map((p) => (isObject(p) ? withoutKey(p, 'nodePort') : p));
  const meta: Json = { ...copy.metadata, name };
  if (spec.type === 'LoadBalancer') withoutLoadBalancer(spec, meta);
  for (const server of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields'])
    delete meta[server];
  const base = { ...copy, metadata: withPruneLast(meta as KubeObject['metadata']), spec };
  return withTrackSelector(base, track, track.canary, podLabels);
}

/** Annotations that ask a cloud, MetalLB or external-dns for a load balancer or a DNS name of the Service's own. */
const LOAD_BALANCER_ANNOTATION =
  /^(service\.beta\.kubernetes\.io\/|metallb\.universe\.tf\/|external-dns\.alpha\.kubernetes\.io\/|cloud\.google\.com\/load-balancer-type$|networking\.gke\.io\/(load-balancer-type|internal-load-balancer))/;

/**
 * A LoadBalancer stable Service is copied as a NodePort one (node ports kept for ALB instance mode)
 * without its load-balancer fields and annotations: the canary is a routing target, and a copy as
 * Kruise makes it would give the canary pods a public load balancer of their own, past the routing.
 */
export function withoutLoadBalancer(spec: Json, meta: Json): void {
  spec.type = 'NodePort';
  for (const field of ['loadBalancerSourceRanges', 'loadBalancerClass', 'allocateLoadBalancerNodePorts'])
    delete spec[field];
  const annotations = isObject(meta.annotations) ? meta.annotations : undefined;
  if (annotations)
    meta.annotations = Object.fromEntries(
      Object.entries(annotations).filter(([k]) => !LOAD_BALANCER_ANNOTATION.test(k)),
    );
}

/** Kruise copies patchPodTemplateMetadata labels into the canary selector only for keys it already has. */
function pick(map: Readonly<Record<string, string>>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) if (map[k] !== undefined) out[k] = map[k];
  return out;
}

function withoutKey(o: Json, key: string): Json {
  const out = { ...o };
  delete out[key];
  return out;
}
