import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { KubeObject } from '../../src/model/kube';
import type { GeneratorContext } from '../../src/contract/generator';
import { findIngress, ingressClass, ingressPaths, isCanaryIngress, canaryPrefix } from '../_kit/ingress';
import { canaryIngressName, canaryIngressOf } from '../_kit/canary-ingress';
import { attachCanaries, CanaryIngress, samePlace } from './location-match';
import { NginxLocation, nginxServers, placeOf } from './locations';
import { annotationKey, NginxOptions } from './options';

type Ctx = GeneratorContext<NginxOptions>;

/**
 * ingress-nginx attaches a canary Ingress to the upstream `<namespace>-<service>-<port>` of the
 * stable location it copies, and balancer.lua applies it to every location proxying to that
 * upstream (controller.go mergeAlternativeBackends; kubernetes/ingress-nginx#4667, #8689). So any
 * other host or path of the app's Ingresses of the same class that uses the stable Service on the
 * same port, and a defaultBackend serving what no path matches, takes canary traffic too: warned
 * at the path or defaultBackend. Only the app's own manifests are read, as for the other checks.
 */
export function checkSharedUpstreams(ctx: Ctx): Diagnostic[] {
  const listed = ctx.options.ingresses
    .map((name) => findIngress(ctx.resources, name, ctx.rollout.namespace))
    .filter((s): s is SourceObject => !!s && !isCanaryIngress(s.object, ctx.options.annotationPrefix))
    .filter((s) => ingressPaths(s.object).some((p) => p.service === ctx.stableService));
  const classes = [...new Set(listed.map((s) => ingressClass(s.object) ?? ''))];
  return classes.flatMap((klass) =>
    checkClass(
      ctx,
      listed.filter((s) => (ingressClass(s.object) ?? '') === klass),
      ctx.resources.items.filter((s) => s.object.kind === 'Ingress' && (ingressClass(s.object) ?? '') === klass),
    ),
  );
}

function checkClass(ctx: Ctx, listed: readonly SourceObject[], ofClass: readonly SourceObject[]): Diagnostic[] {
  const namespace = ctx.rollout.namespace ?? '';
  const stable = ofClass.filter((s) => canaryPrefix(s.object) === undefined);
  const servers = nginxServers(
    stable.map((s) => s.object),
    namespace,
  );
  const canaries = listed.map((s) => hypotheticalCanary(ctx, s.object));
  const attached = attachCanaries(servers, canaries, namespace);
  const warned = new Map<string, { source: SourceObject; location: NginxLocation; places: string[]; canary: string }>();
  for (const location of [...servers.values()].flatMap((s) => s.locations)) {
    const attachment = attached.get(location.upstream);
    if (!attachment || canaries.some((c) => ingressPaths(c.object).some((p) => samePlace(location, p)))) continue;
    const source = stable.find((s) => s.object === location.ingress);
    if (!source) continue;
    // One warning per written backend: a defaultBackend serves the root of each of its hosts.
    const key = `${stable.indexOf(source)}/${location.at.join('/')}`;
    const entry = warned.get(key) ?? { source, location, places: [], canary: attachment.canary.metadata.name };
    entry.places.push(placeOf(location));
    warned.set(key, entry);
  }
  return [...warned.values()].map((w) =>
    diagnosticAt(
      w.source.locate(w.location.at),
      `Ingress "${w.source.object.metadata.name}" ${w.places.join(', ')} goes to Service ${w.location.service} port ${w.location.port}, the ingress-nginx upstream canary Ingress "${w.canary}" attaches to: ingress-nginx applies a canary per upstream, so these requests get its weight and header rules too; ${advice(w.location)}`,
      'warning',
    ),
  );
}

function advice(location: NginxLocation): string {
  return location.fallback
    ? 'give each host a path for / or point spec.defaultBackend at another Service'
    : 'list this Ingress in the rollout if that is intended, else point this path at another Service';
}

/** The canary Ingress a step renders, reduced to what attaching reads (its rules). */
function hypotheticalCanary(ctx: Ctx, stable: KubeObject): CanaryIngress {
  const prefix = ctx.options.annotationPrefix;
  const metadata = {
    name: canaryIngressName(stable.metadata.name),
    ...(stable.metadata.namespace !== undefined ? { namespace: stable.metadata.namespace } : {}),
    annotations: { [annotationKey(prefix, 'canary')]: 'true' },
  };
  return { object: canaryIngressOf(stable, ctx.stableService, ctx.canaryService, metadata), prefix };
}
