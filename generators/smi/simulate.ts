import { isObject, KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { SMI_GROUP } from './options';

/** A request from outside names its Service in the host (`svc`, `svc.ns...`); without a host the first TrafficSplit answers. */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const service = request.host?.split(/[.:]/)[0];
  return splitFor(objects, (root) => service === undefined || root === service);
}

/** The mesh sends a request for the root Service over the TrafficSplit's backends by weight (SMI traffic-split spec). */
export function simulateHop(objects: readonly KubeObject[], service: string): SimResult | undefined {
  return splitFor(objects, (root) => root === service);
}

function splitFor(objects: readonly KubeObject[], fits: (root: string) => boolean): SimResult | undefined {
  for (const split of objects.filter((o) => o.kind === 'TrafficSplit' && o.apiVersion.startsWith(`${SMI_GROUP}/`))) {
    const spec = isObject(split.spec) ? split.spec : {};
    const root = String(spec.service ?? '').split('.')[0];
    if (!fits(root)) continue;
    const backends = (Array.isArray(spec.backends) ? spec.backends.filter(isObject) : []).map((b) => ({
      service: String(b.service ?? '').split('.')[0],
      weight: quantity(b.weight),
    }));
    const total = backends.reduce((n, b) => n + b.weight, 0);
    return {
      backends: backends.filter((b) => b.weight > 0).map((b) => ({ service: b.service, share: b.weight / total })),
      rule: `TrafficSplit ${split.metadata.name} (root ${root})`,
    };
  }
  return undefined;
}

/** An integer (v1alpha2+) or a Kubernetes quantity such as "90" or "500m" (v1alpha1). */
function quantity(value: unknown): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(String(value ?? ''));
  return m ? Number(m[1]) / (m[2] === 'm' ? 1000 : 1) : 0;
}
