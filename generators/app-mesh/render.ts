import { percentOf } from '../_kit/weight-only';
import { cloneJson, KubeObject } from '../../src/model/kube';
import { hasCanaryRoutes, TrafficState } from '../../src/model/plan';
import { defaultTrackLabel } from '../../src/model/track';
import {
  Ctx,
  findAppMesh,
  HASH_LABEL,
  Json,
  objOf,
  routerNameOf,
  selectsArgoHash,
  specOf,
  targetNode,
  targetsOf,
} from './options';

/**
 * The VirtualRouter of the VirtualService with, in each selected route (all when `routes` is not
 * given, as Argo does), the canary VirtualNode's target at W and the stable one's at 100 - W; a
 * missing canary target is added after the stable one. While the canary gets traffic, the canary
 * and stable VirtualNodes' podSelectors also select their track (Argo adds the pod-template hash),
 * so Cloud Map registers each node's own pods; at rest they are as written, unless they select
 * Argo's hash label: then the track label replaces it in every state.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const vs = findAppMesh(ctx, 'VirtualService', ctx.options.virtualService.name)?.object;
  const router = vs && findAppMesh(ctx, 'VirtualRouter', routerNameOf(vs) ?? '')?.object;
  if (!router) throw new Error(`VirtualRouter of VirtualService "${ctx.options.virtualService.name}" not found`);
  const canary = percentOf(traffic);
  const names = ctx.options.virtualService.routes;
  const routes = (specOf(router).routes as Json[]).map((r) =>
    names && !names.includes(String(r.name)) ? r : weighRoute(r, ctx, canary),
  );
  const out: KubeObject[] = [{ ...router, spec: { ...specOf(router), routes } }];
  if (hasCanaryRoutes(traffic) || argoOwnedNodes(ctx)) out.push(...trackNodes(ctx));
  return out;
}

/** VirtualNodes written for Argo select its pod-template hash, which Argo sets at every step: rollgen's track label takes its place at every step. */
function argoOwnedNodes(ctx: Ctx): boolean {
  const { canaryVirtualNodeRef: c, stableVirtualNodeRef: s } = ctx.options.virtualNodeGroup;
  return [c.name, s.name].some((name) => {
    const node = findAppMesh(ctx, 'VirtualNode', name)?.object;
    return node !== undefined && selectsArgoHash(node);
  });
}

function weighRoute(route: Json, ctx: Ctx, canary: number): Json {
  const found = targetsOf(route);
  if (!found) return route;
  const { canaryVirtualNodeRef: c, stableVirtualNodeRef: s } = ctx.options.virtualNodeGroup;
  const hasCanary = found.targets.some((t) => targetNode(t) === c.name);
  const targets: Json[] = [];
  for (const t of found.targets) {
    const node = targetNode(t);
    targets.push(
      node === s.name
        ? { ...cloneJson(t), weight: 100 - canary }
        : node === c.name
          ? { ...cloneJson(t), weight: canary }
          : cloneJson(t),
    );
    if (node === s.name && !hasCanary)
      targets.push({ ...cloneJson(t), virtualNodeRef: { ...objOf(t.virtualNodeRef), name: c.name }, weight: canary });
  }
  const typed = objOf(route[found.type]);
  return { ...route, [found.type]: { ...typed, action: { ...objOf(typed.action), weightedTargets: targets } } };
}

function trackNodes(ctx: Ctx): KubeObject[] {
  const track = ctx.track ?? defaultTrackLabel;
  const { canaryVirtualNodeRef: c, stableVirtualNodeRef: s } = ctx.options.virtualNodeGroup;
  return [
    [c.name, track.canary],
    [s.name, track.stable],
  ].flatMap(([name, value]) => {
    const node = findAppMesh(ctx, 'VirtualNode', name)?.object;
    if (!node) return [];
    const spec = specOf(node);
    const selector = objOf(spec.podSelector);
    const { [HASH_LABEL]: _argoHash, ...written } = objOf(selector.matchLabels);
    const matchLabels = { ...written, [track.key]: value };
    return [{ ...node, spec: { ...spec, podSelector: { ...selector, matchLabels } } }];
  });
}
