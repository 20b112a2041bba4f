import { compareText } from '../diagnostics';
import type { PeerRollout } from '../contract/generator';
import type { LoadedApp } from '../spec/loaded-app';
import type { BoundProvider } from '../contract/generator';
import type { ResourceSet } from '../model/resource-set';
import { RolloutSpec, sideServices } from '../model/rollout';

/** Provider id -> every rollout bound to it across the repo, sorted by app then rollout. */
export type RepoPeers = ReadonlyMap<string, readonly PeerRollout<unknown>[]>;

export function peerOf(
  app: string,
  rollout: RolloutSpec,
  resources: ResourceSet,
  provider: BoundProvider,
): PeerRollout<unknown> {
  const pp = rollout.pingPong;
  // Argo: a provider that prefers ping-pong routes to ping and pong even beside a stable/canary pair.
  const sides =
    pp?.alongside && provider.generator.capabilities.pingPong === 'preferred' ? sideServices(pp) : undefined;
  const stableService = sides?.[0] ?? rollout.traffic.stableService ?? '';
  const canaryService = sides?.[1] ?? rollout.traffic.canaryService ?? stableService;
  return {
    app,
    rollout,
    options: provider.options,
    optionsOrigin: provider.origin,
    ...(provider.locate ? { locateOption: provider.locate } : {}),
    resources,
    stableService,
    canaryService,
  };
}

/** Each app's committed output objects, by app name. */
export type CommittedOutputs = ReadonlyMap<string, ResourceSet>;

/** Groups the rollouts of every loaded app by provider. Pure; the order never depends on load order. */
export function repoPeers(apps: readonly LoadedApp[], committed?: CommittedOutputs): RepoPeers {
  const out = new Map<string, PeerRollout<unknown>[]>();
  for (const app of apps) {
    // A TrafficRouting routes like a rollout of its own (e.g. it needs ALB orders too).
    for (const r of [...app.rollouts, ...app.routings.map((t) => ({ spec: t.spec.rollout, providers: t.providers }))]) {
      for (const p of r.providers) {
        const list = out.get(p.generator.id) ?? [];
        const output = committed?.get(app.name);
        list.push({
          ...peerOf(app.name, r.spec, app.resources, p),
          ...(output ? { committed: output } : {}),
          ...(app.cluster !== undefined ? { cluster: app.cluster } : {}),
        });
        out.set(p.generator.id, list);
      }
    }
  }
  for (const list of out.values()) list.sort(byAppThenRollout);
  return out;
}

/** The peers of one list per cluster (apps without targets are one cluster), in cluster order. */
export function byCluster<P extends { readonly cluster?: string }>(list: readonly P[]): P[][] {
  const groups = new Map<string, P[]>();
  for (const p of list) {
    const key = p.cluster ?? '';
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  return [...groups].sort(([a], [b]) => compareText(a, b)).map(([, g]) => g);
}

export function byAppThenRollout(a: PeerRollout<unknown>, b: PeerRollout<unknown>): number {
  return compareText(a.app, b.app) || compareText(a.rollout.name, b.rollout.name);
}
