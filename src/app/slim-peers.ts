import type { PeerRollout } from '../contract/generator';
import type { Origin } from '../diagnostics';
import type { KubeObject } from '../model/kube';
import { ResourceSet, SourceObject } from '../model/resource-set';
import type { RolloutSpec } from '../model/rollout';
import { RepoPeers, byAppThenRollout, repoPeers } from '../render/repo-peers';
import type { LoadedApp } from '../spec/loaded-app';
import { ORDER } from '../../generators/aliyun-alb/annotations';

/**
 * What ALB order allocation reads of a peer app that only routes through aliyun-alb, kept in the
 * route-claim index so `render APP` among hundreds of listener peers reads their facts instead of
 * parsing them (generators/aliyun-alb/repo-orders.ts and committed.ts read exactly these): its
 * Ingress and IngressClass objects with their positions, and per rollout its name, namespace,
 * steps (weights and how many matches) and options. Plain JSON, stamped like the entry it is in.
 */
export interface AlbFacts {
  readonly cluster?: string;
  readonly namespace?: string;
  readonly items: readonly SlimObject[];
  readonly peers: readonly SlimPeer[];
}

/** The objects of a committed output that the allocation reads (its Ingresses), stamped by the output directory. */
export interface SlimObject {
  readonly object: KubeObject;
  readonly origin: Origin;
  /** Where its order annotation is written: the only field path the repo-wide ALB rules locate. */
  readonly orderAt: Origin;
}

interface SlimPeer {
  readonly rollout: { readonly name: string; readonly namespace?: string; readonly steps: readonly SlimStep[] };
  readonly options: unknown;
  readonly optionsOrigin: Origin;
  readonly stableService: string;
  readonly canaryService: string;
}

interface SlimStep {
  readonly weight?: number;
  readonly matches: number;
}

const ALB = 'aliyun-alb';
const ORDER_PATH = ['metadata', 'annotations', ORDER] as const;

/** The facts of an app every rollout of which routes through aliyun-alb only; else undefined (it loads in full). */
export function albFacts(app: LoadedApp): AlbFacts | undefined {
  const peers = repoPeers([app]);
  const list = peers.get(ALB);
  if (peers.size !== 1 || !list) return undefined;
  return {
    ...(app.cluster !== undefined ? { cluster: app.cluster } : {}),
    ...(app.resources.defaultNamespace !== undefined ? { namespace: app.resources.defaultNamespace } : {}),
    items: slimObjects(app.resources, (k) => k === 'Ingress' || k === 'IngressClass'),
    peers: list.map((p) => ({
      rollout: {
        name: p.rollout.name,
        ...(p.rollout.namespace !== undefined ? { namespace: p.rollout.namespace } : {}),
        steps: p.rollout.steps.map((s) => ({
          ...(s.weight !== undefined ? { weight: s.weight } : {}),
          matches: s.matches.length,
        })),
      },
      options: p.options,
      optionsOrigin: p.optionsOrigin,
      stableService: p.stableService,
      canaryService: p.canaryService,
    })),
  };
}

/** The objects of `set` of the kinds kept, in order, with their order annotation's position. */
export function slimObjects(set: ResourceSet, keep: (kind: string) => boolean = (k) => k === 'Ingress'): SlimObject[] {
  return set.items
    .filter((i) => keep(i.object.kind))
    .map((i) => ({ object: i.object, origin: i.origin, orderAt: i.locate(ORDER_PATH) }));
}

/** The peers an app's facts stand for, as repoPeers would list them had the app been loaded with this output. */
export function slimPeers(app: string, facts: AlbFacts, committed: readonly SlimObject[]): PeerRollout<unknown>[] {
  const resources = new ResourceSet(facts.items.map(sourceObject), facts.namespace);
  const output = new ResourceSet(committed.map(sourceObject));
  return facts.peers.map((p) => ({
    app,
    // Only what the repo-wide ALB rules read is kept (see AlbFacts).
    rollout: {
      ...p.rollout,
      steps: p.rollout.steps.map((s) => ({ ...s, matches: new Array<never>(s.matches).fill(undefined as never) })),
    } as unknown as RolloutSpec,
    options: p.options,
    optionsOrigin: p.optionsOrigin,
    resources,
    committed: output,
    ...(facts.cluster !== undefined ? { cluster: facts.cluster } : {}),
    stableService: p.stableService,
    canaryService: p.canaryService,
  }));
}

/** `peers` with the slim apps' rollouts added to the aliyun-alb list, in repoPeers' order. */
export function withSlimPeers(peers: RepoPeers, slim: readonly PeerRollout<unknown>[]): RepoPeers {
  if (slim.length === 0) return peers;
  const out = new Map(peers);
  out.set(ALB, [...(peers.get(ALB) ?? []), ...slim].sort(byAppThenRollout));
  return out;
}

function sourceObject(s: SlimObject): SourceObject {
  return {
    object: s.object,
    origin: s.origin,
    locate: (path) => {
      if (path.length === ORDER_PATH.length && path.every((p, i) => p === ORDER_PATH[i])) return s.orderAt;
      throw new Error(`internal: ${path.join('.')} of a peer read from the index; only its order is kept`);
    },
  };
}
