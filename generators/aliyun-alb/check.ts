import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { GeneratorContext, PeerRollout, RouteClaim } from '../../src/contract/generator';
import { noPathToStable } from '../_kit/canary-ingress';
import { canaryName, headerCanaryName, isAlbCanary, LISTEN_PORTS, ORDER, readOrder } from './annotations';
import { albConfigsByClass, ingressListeners } from './listener';
import type { AlbOptions } from './options';
import { describeFailure } from './messages';
import { repoOrders, stableIngress } from './repo-orders';
import { stableConditionsWithMatches } from './stable-conditions';

type Ctx = GeneratorContext<AlbOptions>;

/** Every listed Ingress exists, fits, and this rollout's canaries find orders among its own app's Ingresses. */
export function check(ctx: Ctx): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const name of ctx.options.ingresses) {
    const source = stableIngress(ctx, name);
    if (!source)
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `Ingress "${name}" not found in the app's manifests; add it or fix trafficRoutings[0].ingress.name`,
        ),
      );
    else out.push(...checkIngress(ctx, source));
  }
  // Alone (this app's own Ingresses only): problems that no other app causes are reported here, so
  // the app fails to load and checkRepo sees only problems between apps.
  if (out.length === 0) out.push(...repoOrders([ctx]).failures.map(describeFailure));
  return out;
}

function checkIngress(ctx: Ctx, source: SourceObject): Diagnostic[] {
  const obj = source.object;
  const name = obj.metadata.name;
  if (isAlbCanary(obj))
    return [
      diagnosticAt(
        source.origin,
        `Ingress "${name}" is itself a canary Ingress (alb.ingress.kubernetes.io/canary: "true"); name the stable Ingress instead`,
      ),
    ];
  const out: Diagnostic[] = [];
  const unreachable = noPathToStable(source, ctx.stableService);
  if (unreachable) out.push(unreachable);
  out.push(...stableConditionsWithMatches(ctx, source));
  if (readOrder(obj) === undefined) {
    out.push(
      diagnosticAt(
        source.locate(['metadata', 'annotations', ORDER]),
        `Ingress "${name}": ${ORDER} must be a whole number from 1 to 1000 (lower wins)`,
      ),
    );
  }
  const listeners = ingressListeners(obj, albConfigsByClass(ctx.resources.items.map((i) => i.object)));
  if ('problem' in listeners)
    out.push(
      diagnosticAt(source.locate(['metadata', 'annotations', LISTEN_PORTS]), `Ingress "${name}": ${listeners.problem}`),
    );
  for (const canary of [canaryName(name), headerCanaryName(name)]) {
    const taken = ctx.resources.find('Ingress', canary, obj.metadata.namespace);
    if (taken)
      out.push(
        diagnosticAt(
          taken.origin,
          `Ingress "${canary}" already exists in the app's manifests; rollgen renders a canary of "${name}" under that name, so remove or rename it`,
        ),
      );
  }
  return out;
}

/** No route claims: several canaries on one host+path are fine on ALB, their orders keep them apart (checkRepo). */
export function claims(_ctx: Ctx): RouteClaim[] {
  return [];
}

/** Orders across every app on each listener: every canary Ingress of every rollout gets a free order below its stable's. */
export function checkRepo(peers: readonly PeerRollout<AlbOptions>[]): Diagnostic[] {
  return repoOrders(peers).failures.map(describeFailure);
}
