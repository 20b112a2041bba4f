import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { PeerRollout } from '../../src/contract/generator';
import { DEFAULT_ORDER, isAlbCanary, ORDER, readOrder } from './annotations';
import { albConfigsByClass, DEFAULT_LISTENERS, describeListener, ingressListeners } from './listener';
import type { AlbOptions } from './options';
import { demandId } from './orders';
import { repoAllocation } from './repo-orders';

type Peer = PeerRollout<AlbOptions>;

/** One Ingress on one listener, as a committed output holds it. */
interface Placed {
  readonly app: string;
  readonly item: SourceObject;
  readonly order: number;
  readonly canary: boolean;
}

/** Every ALB Ingress of every app's committed output, per listener (once per app). */
function committedByListener(peers: readonly Peer[]): Map<string, Placed[]> {
  const albConfigs = albConfigsByClass(peers.flatMap((p) => p.resources.items.map((i) => i.object)));
  const out = new Map<string, Placed[]>();
  for (const app of [...new Set(peers.map((p) => p.app))]) {
    for (const item of peers.find((p) => p.app === app)?.committed?.items ?? []) {
      if (item.object.kind !== 'Ingress') continue;
      const r = ingressListeners(item.object, albConfigs);
      const order = readOrder(item.object) ?? DEFAULT_ORDER;
      for (const l of 'listeners' in r ? r.listeners : DEFAULT_LISTENERS)
        out.set(l, [...(out.get(l) ?? []), { app, item, order, canary: isAlbCanary(item.object) }]);
    }
  }
  return out;
}

/**
 * What the cluster runs, not a fresh render: a committed canary Ingress whose order another Ingress
 * on its listener also holds cannot be created (openkruise/rollouts#128), and one that does not rank
 * before its stable Ingress never gets a request. Checked over every app's committed output.
 */
export function checkCommitted(peers: readonly Peer[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const [listener, placed] of [...committedByListener(peers)].sort(([a], [b]) => a.localeCompare(b))) {
    for (const p of placed.filter((x) => x.canary)) {
      const name = p.item.object.metadata.name;
      const at = p.item.locate(['metadata', 'annotations', ORDER]);
      const others = placed.filter((x) => x !== p && x.order === p.order);
      if (others.length > 0)
        out.push(
          diagnosticAt(
            at,
            `committed canary Ingress "${name}" of app ${p.app} holds ${ORDER} ${p.order} on ${describeListener(listener)}, as ${others.map((o) => `Ingress "${o.item.object.metadata.name}" of app ${o.app}`).join(', ')} does: ALB cannot create it (openkruise/rollouts#128); the next rollgen advance of app ${p.app} moves it to a free order`,
          ),
        );
      const stable = placed.find(
        (x) => x.app === p.app && !x.canary && name.startsWith(`${x.item.object.metadata.name}-canary`),
      );
      if (stable && p.order >= stable.order)
        out.push(
          diagnosticAt(
            at,
            `committed canary Ingress "${name}" of app ${p.app} has ${ORDER} ${p.order}, not before its stable Ingress (${stable.order}), so it never gets a request`,
          ),
        );
    }
  }
  return out;
}

/** The per-listener order map: user-written Ingresses and allocated canaries, first (lowest) order first. */
export function describeOrders(peers: readonly Peer[]): string[] {
  const { allocation, held, demands, committed } = repoAllocation(peers);
  const rows = new Map<string, { order: number; name: string; what: string }[]>();
  const add = (listeners: readonly string[], order: number, name: string, what: string) => {
    for (const l of listeners) rows.set(l, [...(rows.get(l) ?? []), { order, name, what }]);
  };
  for (const h of held) add(h.listeners, h.order, h.what.replace(/^Ingress "(.*)"$/, '$1'), `Ingress of app ${h.app}`);
  for (const d of demands) {
    for (const [slot, order] of allocation.orders.get(demandId(d)) ?? []) {
      const kept = committed.some((c) => c.app === d.app && c.ingress === slot && c.order === order);
      add(d.listeners, order, slot, `canary of app ${d.app}${kept ? ' (committed)' : ''}`);
    }
  }
  return [...rows]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([l, list]) => {
      const sorted = list.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
      const width = Math.max(...sorted.map((r) => r.name.length));
      return [
        `ALB orders on ${describeListener(l)} (lower first):`,
        ...sorted.map((r) => `  ${String(r.order).padStart(4)}  ${r.name.padEnd(width)}  ${r.what}`),
      ];
    });
}
