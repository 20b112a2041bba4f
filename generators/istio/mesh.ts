import type { KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { simulate } from './simulate';
import { shortHost, specOf } from './vs';

/**
 * A request an earlier hop (an ingress, another mesh) sent to Service `service`: the caller's
 * sidecar applies the VirtualServices bound to the mesh (no `gateways`, or `mesh` among them)
 * whose hosts name that Service. Gateway-only VirtualServices never see this traffic.
 */
export function simulateHop(
  objects: readonly KubeObject[],
  service: string,
  request: SimRequest,
): SimResult | undefined {
  const seen = objects.filter((o) => o.kind !== 'VirtualService' || (boundToMesh(o) && namesService(o, service)));
  if (!seen.some((o) => o.kind === 'VirtualService')) return undefined;
  const { host: _host, ...rest } = request;
  return simulate(seen, rest);
}

function boundToMesh(vs: KubeObject): boolean {
  const gateways = specOf(vs).gateways;
  return !Array.isArray(gateways) || gateways.length === 0 || gateways.includes('mesh');
}

function namesService(vs: KubeObject, service: string): boolean {
  const hosts = specOf(vs).hosts;
  return Array.isArray(hosts) && hosts.some((h) => shortHost(h) === service);
}
