import type { KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { isAppMesh, Json, listOf, objOf, routerNameOf, specOf, targetNode, targetsOf } from './options';

/** A request from outside names the App Mesh VirtualService in its host; without a host the first one answers. */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const name = request.host?.split(/[.:]/)[0];
  return route(objects, request, (svc) => name === undefined || svc === name);
}

/** The Envoy sidecar routes a call to Service `service` through the VirtualService named by it (its awsName's first label). */
export function simulateHop(
  objects: readonly KubeObject[],
  service: string,
  request: SimRequest,
): SimResult | undefined {
  return route(objects, request, (svc) => svc === service);
}

/**
 * The VirtualService's VirtualRouter: its routes by `priority` (lowest first, unset last), the
 * first whose match fits (http prefix, path exact or prefix, exact headers; tcp always), then
 * weighted targets; each VirtualNode sends to the Service its DNS service discovery names.
 * Cloud Map discovery is not modelled (the node's Service is taken from its name).
 */
function route(
  objects: readonly KubeObject[],
  request: SimRequest,
  fits: (svc: string) => boolean,
): SimResult | undefined {
  for (const vs of objects.filter((o) => isAppMesh(o, 'VirtualService'))) {
    const called = String(specOf(vs).awsName ?? vs.metadata.name).split('.')[0];
    if (!fits(called)) continue;
    const router = objects.find((o) => isAppMesh(o, 'VirtualRouter') && o.metadata.name === routerNameOf(vs));
    if (!router) return undefined;
    const routes = listOf(specOf(router).routes).sort((a, b) => priority(a) - priority(b));
    const hit = routes.find((r) => matchFits(r, request));
    const targets = hit ? (targetsOf(hit)?.targets ?? []) : [];
    const total = targets.reduce((n, t) => n + Number(t.weight ?? 0), 0);
    if (!hit || total <= 0) return undefined;
    return {
      backends: targets
        .filter((t) => Number(t.weight ?? 0) > 0)
        .map((t) => ({ service: nodeService(objects, targetNode(t)), share: Number(t.weight) / total })),
      rule: `App Mesh VirtualRouter ${router.metadata.name} route ${String(hit.name)}`,
    };
  }
  return undefined;
}

const priority = (r: Json): number => (typeof r.priority === 'number' ? r.priority : 1001);

function matchFits(route: Json, r: SimRequest): boolean {
  if (route.tcpRoute !== undefined) return true;
  const typed = objOf(route.httpRoute ?? route.http2Route ?? route.grpcRoute);
  const match = objOf(typed.match);
  const path = r.path.split(/[?#]/)[0] || '/';
  if (typeof match.prefix === 'string' && !path.startsWith(match.prefix)) return false;
  const p = objOf(match.path);
  if (typeof p.exact === 'string' && path !== p.exact) return false;
  return listOf(match.headers).every((h) => {
    const want = objOf(h.match).exact;
    const got = Object.entries(r.headers).find(([k]) => k.toLowerCase() === String(h.name).toLowerCase())?.[1];
    return want === undefined ? got !== undefined : got === String(want);
  });
}

function nodeService(objects: readonly KubeObject[], node: string): string {
  const vn = objects.find((o) => isAppMesh(o, 'VirtualNode') && o.metadata.name === node);
  const hostname = vn ? objOf(objOf(specOf(vn).serviceDiscovery).dns).hostname : undefined;
  return typeof hostname === 'string' ? hostname.split('.')[0] : `<VirtualNode ${node}>`;
}
