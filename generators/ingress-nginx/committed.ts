import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { PeerRollout } from '../../src/contract/generator';
import { ingressClass, ingressPaths, isCanaryIngress } from '../_kit/ingress';
import type { NginxOptions } from './options';

/**
 * What the cluster runs, not fresh renders: ingress-nginx honours one canary Ingress per host+path
 * of a class, so two committed canaries on one route (from two apps, or a hand edit) leave one of
 * them without traffic. Checked over every app's committed output.
 */
export function checkCommitted(peers: readonly PeerRollout<NginxOptions>[]): Diagnostic[] {
  const prefixes = [...new Set(peers.map((p) => p.options.annotationPrefix))];
  const byRoute = new Map<string, { app: string; item: SourceObject }[]>();
  for (const app of [...new Set(peers.map((p) => p.app))]) {
    for (const item of peers.find((p) => p.app === app)?.committed?.items ?? []) {
      if (item.object.kind !== 'Ingress' || !prefixes.some((x) => isCanaryIngress(item.object, x))) continue;
      for (const p of ingressPaths(item.object)) {
        const key = `${ingressClass(item.object) ?? 'default'} host ${p.host ?? '*'} path ${p.path}`;
        byRoute.set(key, [...(byRoute.get(key) ?? []), { app, item }]);
      }
    }
  }
  const out: Diagnostic[] = [];
  for (const [route, list] of byRoute) {
    const names = new Set(list.map((x) => `${x.app}/${x.item.object.metadata.name}`));
    if (names.size < 2) continue;
    for (const x of list)
      out.push(
        diagnosticAt(
          x.item.origin,
          `committed canary Ingress "${x.item.object.metadata.name}" of app ${x.app} shares IngressClass ${route} with ${[...names].filter((n) => n !== `${x.app}/${x.item.object.metadata.name}`).join(', ')}: ingress-nginx honours one canary per host and path; give one app its own host or path`,
        ),
      );
  }
  return out;
}
