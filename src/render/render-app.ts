import { KubeObject, objectKey } from '../model/kube';
import { LoadedApp, LoadedRollout } from '../spec/load-app';
import { RenderPhase } from './phase';
import { renderRollout } from './render-rollout';
import { RepoPeers } from './repo-peers';
import { TrackLabel } from './track';
import { PodTemplateInput } from './workload';

export interface RolloutRenderState {
  readonly rollout: LoadedRollout;
  readonly phase: RenderPhase;
  readonly stablePod: PodTemplateInput;
  readonly canaryPod: PodTemplateInput;
}

/**
 * Every object of the app in one state: source manifests pass through unchanged unless a rollout
 * renders an object with the same key; new objects follow the one they derive from. Pure.
 */
export function renderApp(app: LoadedApp, states: readonly RolloutRenderState[], track: TrackLabel, peers?: RepoPeers): KubeObject[] {
  const rendered = states.flatMap((s) =>
    renderRollout({
      app: app.name,
      rollout: s.rollout.spec,
      plan: s.rollout.plan,
      resources: app.resources,
      deployment: s.rollout.deployment,
      stablePod: s.stablePod,
      canaryPod: s.canaryPod,
      phase: s.phase,
      track,
      providers: s.rollout.providers,
      ...(peers ? { peers } : {}),
    }),
  );
  return merge(app.resources.items.map((i) => i.object), rendered);
}

function merge(source: readonly KubeObject[], rendered: readonly KubeObject[]): KubeObject[] {
  const byKey = new Map(rendered.map((o) => [objectKey(o), o]));
  const used = new Set<string>();
  const out: KubeObject[] = [];
  for (const o of source) {
    const key = objectKey(o);
    out.push(byKey.get(key) ?? o);
    used.add(key);
    for (const derived of rendered.filter((r) => derivesFrom(r, o) && !used.has(objectKey(r)))) {
      out.push(derived);
      used.add(objectKey(derived));
    }
  }
  for (const r of rendered) if (!used.has(objectKey(r))) out.push(r), used.add(objectKey(r));
  return out;
}

/** `<name>-canary` of the same kind sits right after its stable object, which keeps diffs readable. */
function derivesFrom(candidate: KubeObject, base: KubeObject): boolean {
  return candidate.kind === base.kind && candidate.metadata.name === `${base.metadata.name}-canary`;
}
