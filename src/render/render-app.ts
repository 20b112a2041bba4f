import { KubeObject, objectKey } from '../model/kube';
import { ResourceSet } from '../model/resource-set';
import { stableTraffic } from '../model/plan';
import type { LoadedApp, LoadedRollout, LoadedRouting } from '../spec/loaded-app';
import { RenderPhase } from './phase';
import { renderRollout, renderRouteObjects, workloadWave } from './render-rollout';
import { RepoPeers } from './repo-peers';
import { TrackLabel } from '../model/track';
import { PodTemplateInput } from './workload';
import { PingPongSide, pingPongSides } from '../model/rollout';

export interface RolloutRenderState {
  readonly rollout: LoadedRollout;
  readonly phase: RenderPhase;
  readonly stablePod: PodTemplateInput;
  readonly canaryPod: PodTemplateInput;
  /** Argo pingPong: the Service that is stable now (from the status). */
  readonly stableSide?: PingPongSide;
}

/**
 * Every object of the app in one state: source manifests pass through unchanged unless a rollout
 * renders an object with the same key; new objects follow the one they derive from. Pure.
 */
export function renderApp(
  app: LoadedApp,
  states: readonly RolloutRenderState[],
  track: TrackLabel,
  peers?: RepoPeers,
): KubeObject[] {
  // Rollouts render in order, each over what the previous ones rendered, so rollouts sharing one
  // routing object (a VirtualService, an ALB Ingress) each patch only their own part of it.
  let resources = app.resources;
  const rendered: KubeObject[] = [];
  for (const s of states) {
    const objects = renderRollout({
      app: app.name,
      rollout: pingPongSides(s.rollout.spec, s.stableSide),
      plan: s.rollout.plan,
      resources,
      deployment: s.rollout.deployment,
      stablePod: s.stablePod,
      canaryPod: s.canaryPod,
      phase: s.phase,
      track,
      providers: s.rollout.providers,
      ...(peers ? { peers } : {}),
      ...(s.rollout.analysis ? { analysis: s.rollout.analysis } : {}),
    });
    rendered.push(...objects);
    resources = resources.overlay(objects);
  }
  for (const routing of app.routings)
    rendered.push(...renderSharedRouting(app, routing, states, resources, track, peers));
  return merge(
    app.resources.items.map((i) => i.object),
    lastWins(rendered),
  );
}

/**
 * A TrafficRouting's strategy is on while any member runs a canary (a step or promotion; not while
 * draining), and off otherwise; its routes follow the latest member workload wave.
 */
function renderSharedRouting(
  app: LoadedApp,
  routing: LoadedRouting,
  states: readonly RolloutRenderState[],
  resources: ResourceSet,
  track: TrackLabel,
  peers?: RepoPeers,
): KubeObject[] {
  const members = states.filter((s) => routing.members.includes(s.rollout.spec.name));
  const live = members.some((s) => s.phase.kind === 'step' || s.phase.kind === 'promoting');
  const traffic = live ? routing.plan.steps[0].traffic : stableTraffic(routing.spec.rollout.traffic.weightTotal);
  const wave = Math.max(0, ...members.map((s) => workloadWave(s.rollout.deployment)));
  return renderRouteObjects(
    {
      app: app.name,
      rollout: routing.spec.rollout,
      resources,
      providers: routing.providers,
      track,
      ...(peers ? { peers } : {}),
    },
    traffic,
    wave,
    live ? 'TrafficRouting strategy' : 'stable',
  );
}

/** A later rollout's version of a shared object supersedes the earlier one's. */
function lastWins(objects: readonly KubeObject[]): KubeObject[] {
  const byKey = new Map<string, KubeObject>();
  for (const o of objects) byKey.set(objectKey(o), o);
  return [...byKey.values()];
}

function merge(source: readonly KubeObject[], rendered: readonly KubeObject[]): KubeObject[] {
  const byKey = new Map(rendered.map((o) => [objectKey(o), o]));
  const used = new Set<string>();
  const out: KubeObject[] = [];
  for (const o of source) {
    const key = objectKey(o);
    // A user-written `<name>-canary` already placed right after `<name>` is not emitted twice.
    if (used.has(key)) continue;
    out.push(byKey.get(key) ?? o);
    used.add(key);
    for (const derived of rendered.filter((r) => derivesFrom(r, o) && !used.has(objectKey(r)))) {
      out.push(derived);
      used.add(objectKey(derived));
    }
  }
  for (const r of rendered) {
    if (used.has(objectKey(r))) continue;
    out.push(r);
    used.add(objectKey(r));
  }
  return out;
}

/** `<name>-canary` of the same kind sits right after its stable object, which keeps diffs readable. */
function derivesFrom(candidate: KubeObject, base: KubeObject): boolean {
  return candidate.kind === base.kind && candidate.metadata.name === `${base.metadata.name}-canary`;
}
