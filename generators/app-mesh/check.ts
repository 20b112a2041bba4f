import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { RouteClaim } from '../../src/contract/generator';
import { defaultTrackLabel } from '../../src/model/track';
import {
  Ctx,
  findAppMesh,
  HASH_LABEL,
  listOf,
  objOf,
  routerNameOf,
  selectsArgoHash,
  specOf,
  targetNode,
  targetsOf,
} from './options';

const where = (ctx: Ctx): string => `app ${ctx.app}, rollout ${ctx.rollout.name}`;

/** The VirtualService names a VirtualRouter in the manifests, the routes exist and reach the stable VirtualNode, both VirtualNodes exist. */
export function check(ctx: Ctx): Diagnostic[] {
  const at = (m: string) => diagnosticAt(ctx.optionsOrigin, `${where(ctx)}: ${m}`);
  const { name, routes: names } = ctx.options.virtualService;
  const { canaryVirtualNodeRef: c, stableVirtualNodeRef: s } = ctx.options.virtualNodeGroup;
  if (c.name === s.name) return [at('appMesh canary and stable VirtualNodes must differ')];
  const out = [
    ...nodeProblems(ctx, c.name, ctx.canaryService, 'canary'),
    ...nodeProblems(ctx, s.name, ctx.stableService, 'stable'),
  ];
  const vs = findAppMesh(ctx, 'VirtualService', name);
  if (!vs) return [...out, at(`VirtualService "${name}" (appmesh.k8s.aws) not found in the app's manifests`)];
  const routerName = routerNameOf(vs.object);
  const router = routerName ? findAppMesh(ctx, 'VirtualRouter', routerName) : undefined;
  if (!router)
    return [
      ...out,
      diagnosticAt(
        vs.origin,
        `${where(ctx)}: VirtualService "${name}" has no spec.provider.virtualRouter.virtualRouterRef to a VirtualRouter in the app's manifests`,
      ),
    ];
  const routes = listOf(specOf(router.object).routes);
  for (const n of names ?? [])
    if (!routes.some((r) => r.name === n))
      out.push(diagnosticAt(router.origin, `${where(ctx)}: VirtualRouter "${routerName}" has no route "${n}"`));
  for (const r of routes.filter((r) => !names || names.includes(String(r.name)))) {
    if (!targetsOf(r)?.targets.some((t) => targetNode(t) === s.name))
      out.push(
        diagnosticAt(
          router.origin,
          `${where(ctx)}: route "${String(r.name)}" of VirtualRouter "${routerName}" has no weighted target to the stable VirtualNode "${s.name}"`,
        ),
      );
  }
  return out;
}

/** The node exists, and when it discovers by DNS, the name it resolves is its Service (else its share lands elsewhere). */
function nodeProblems(ctx: Ctx, node: string, service: string, role: string): Diagnostic[] {
  const found = findAppMesh(ctx, 'VirtualNode', node);
  if (!found)
    return [
      diagnosticAt(
        ctx.optionsOrigin,
        `${where(ctx)}: VirtualNode "${node}" (appmesh.k8s.aws) not found in the app's manifests`,
      ),
    ];
  const out: Diagnostic[] = [];
  if (selectsArgoHash(found.object)) {
    const track = ctx.track ?? defaultTrackLabel;
    out.push(
      diagnosticAt(
        found.locate(['spec', 'podSelector', 'matchLabels', HASH_LABEL]),
        `${where(ctx)}: VirtualNode "${node}" selects ${HASH_LABEL}, which Argo rewrites at every step; rollgen's pods do not carry it, so rollgen writes the node with ${track.key}: ${role === 'canary' ? track.canary : track.stable} in its place at every step, as Argo writes the hash`,
        'warning',
      ),
    );
  }
  const hostname = objOf(objOf(specOf(found.object).serviceDiscovery).dns).hostname;
  if (typeof hostname !== 'string' || hostname.split('.')[0] === service) return out;
  return [
    ...out,
    diagnosticAt(
      found.locate(['spec', 'serviceDiscovery', 'dns', 'hostname']),
      `${where(ctx)}: ${role} VirtualNode "${node}" resolves "${hostname}", not the ${role} Service "${service}", so its share would reach other pods; point it at ${service}`,
    ),
  ];
}

/** The VirtualRouter's weighted routes are this rollout's alone. */
export function claims(ctx: Ctx): RouteClaim[] {
  const vs = findAppMesh(ctx, 'VirtualService', ctx.options.virtualService.name);
  const router = vs ? routerNameOf(vs.object) : undefined;
  return router
    ? [
        {
          key: `app-mesh:${ctx.rollout.namespace ?? ''}/${router}`,
          description: `VirtualRouter "${router}"`,
          origin: vs?.origin ?? ctx.optionsOrigin,
        },
      ]
    : [];
}
