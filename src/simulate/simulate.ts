import type { SimRequest, TrafficGenerator } from '../contract/generator';
import { KubeObject, isObject } from '../model/kube';
import { routeThroughChain } from './chain';

export interface PodShare {
  readonly service: string;
  /** Undefined when no Deployment with replicas backs the Service: requests would fail. */
  readonly deployment?: string;
  readonly share: number;
}

export interface TrafficSplit {
  readonly rule: string;
  readonly services: readonly { readonly service: string; readonly share: number }[];
  readonly pods: readonly PodShare[];
  /** Pods that receive mirrored copies (share = fraction of these requests copied). */
  readonly mirror?: readonly PodShare[];
}

/** Routes a request through the chain of providers (see chain.ts), then spreads each Service's share over the pods it selects. */
export function simulateRequest(
  objects: readonly KubeObject[],
  generators: readonly TrafficGenerator[],
  request: SimRequest,
  ready?: ReadonlySet<string>,
): TrafficSplit | undefined {
  const result = routeThroughChain(objects, generators, request);
  if (!result) return undefined;
  const pods = result.backends.flatMap((b) => podsOf(objects, b.service, b.share, ready, b.labels));
  const m = result.mirror;
  return {
    rule: result.rule,
    services: result.backends,
    pods,
    ...(m ? { mirror: podsOf(objects, m.service, m.share, ready, m.labels) } : {}),
  };
}

/** Shares by replica count among Deployments whose pod labels satisfy the Service selector and a mesh subset's labels (as kube-proxy and Envoy spread over endpoints). */
export function podsOf(
  objects: readonly KubeObject[],
  service: string,
  share: number,
  ready?: ReadonlySet<string>,
  subset: Readonly<Record<string, string>> = {},
): PodShare[] {
  const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === service);
  const selector =
    svc && isObject(svc.spec) && isObject(svc.spec.selector)
      ? (svc.spec.selector as Record<string, string>)
      : undefined;
  if (!selector) return [{ service, share }];
  const backing = objects
    .filter((o) => o.kind === 'Deployment' && (!ready || ready.has(o.metadata.name)))
    .map((d) => ({ name: d.metadata.name, replicas: replicas(d), labels: podLabels(d) }))
    .filter((d) => d.replicas > 0 && Object.entries({ ...selector, ...subset }).every(([k, v]) => d.labels[k] === v));
  const total = backing.reduce((n, d) => n + d.replicas, 0);
  if (total === 0) return [{ service, share }];
  return backing.map((d) => ({ service, deployment: d.name, share: (share * d.replicas) / total }));
}

function replicas(d: KubeObject): number {
  return isObject(d.spec) && typeof d.spec.replicas === 'number' ? d.spec.replicas : 1;
}

function podLabels(d: KubeObject): Record<string, string> {
  const t = isObject(d.spec) && isObject(d.spec.template) ? d.spec.template : {};
  return isObject(t.metadata) && isObject(t.metadata.labels) ? (t.metadata.labels as Record<string, string>) : {};
}
