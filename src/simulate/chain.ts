import type { SimBackend, SimRequest, SimResult, TrafficGenerator } from '../contract/generator';
import type { KubeObject } from '../model/kube';
import { plainIngressBackend } from './plain-ingress';

/**
 * Routes a request through every provider it meets, as the data plane would: the entry provider
 * (an ingress or gateway before any mesh) decides first, then each backend Service it picks is
 * handed to the mesh providers (sidecars act on the destination Service), and so on down the
 * chain. Each provider acts at most once on one path, so a mesh that routes a Service to itself
 * ends there. A backend that already names a mesh subset is final. Pure.
 */
export function routeThroughChain(
  objects: readonly KubeObject[],
  generators: readonly TrafficGenerator[],
  request: SimRequest,
): SimResult | undefined {
  // Edge providers first: a request from outside meets the ingress before any sidecar.
  const ordered = [...generators.filter((g) => !g.simulateHop), ...generators.filter((g) => g.simulateHop)];
  for (const g of ordered) {
    const result = g.simulate(objects, request);
    if (result) return followHops(objects, generators, request, result, new Set([g.id]));
  }
  // No provider is the entry: an Ingress of its own may still send the request into a mesh provider.
  const entry = plainIngressBackend(objects, request);
  const meshes = generators.filter((g) => g.simulateHop);
  if (!entry || !firstHop(meshes, objects, entry.service, request)) return undefined;
  return followHops(
    objects,
    generators,
    request,
    { backends: [{ service: entry.service, share: 1 }], rule: entry.rule },
    new Set(),
  );
}

function followHops(
  objects: readonly KubeObject[],
  generators: readonly TrafficGenerator[],
  request: SimRequest,
  result: SimResult,
  used: ReadonlySet<string>,
): SimResult {
  const meshes = generators.filter((g) => g.simulateHop && !used.has(g.id));
  const rules = [result.rule];
  const backends: SimBackend[] = [];
  for (const b of result.backends) {
    const next = b.labels ? undefined : firstHop(meshes, objects, b.service, request);
    if (!next) {
      backends.push(b);
      continue;
    }
    const deeper = followHops(objects, generators, request, next.result, new Set([...used, next.id]));
    if (!rules.includes(deeper.rule)) rules.push(deeper.rule);
    backends.push(...deeper.backends.map((d) => ({ ...d, share: d.share * b.share })));
  }
  return { backends: merge(backends), rule: rules.join(' -> '), ...(result.mirror ? { mirror: result.mirror } : {}) };
}

function firstHop(
  meshes: readonly TrafficGenerator[],
  objects: readonly KubeObject[],
  service: string,
  request: SimRequest,
): { id: string; result: SimResult } | undefined {
  for (const g of meshes) {
    const result = g.simulateHop?.(objects, service, request);
    if (result) return { id: g.id, result };
  }
  return undefined;
}

/** The same Service (and subset) reached along two paths is one backend with the summed share. */
function merge(backends: readonly SimBackend[]): SimBackend[] {
  const out = new Map<string, SimBackend>();
  for (const b of backends) {
    const key = `${b.service}|${JSON.stringify(b.labels ?? {})}`;
    const seen = out.get(key);
    out.set(key, seen ? { ...seen, share: seen.share + b.share } : b);
  }
  return [...out.values()];
}
