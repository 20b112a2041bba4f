import { StateError } from '../errors';
import { REVISION_ANNOTATION, TrackLabel } from '../model/track';
import { RenderPhase } from '../render/phase';
import { templateRevision } from '../render/revision';
import { PodTemplateInput, podTemplateOf, stripTemplate } from '../render/workload';
import type { LoadedRollout } from '../spec/loaded-app';
import type { OutputSnapshot } from './app-state';
import type { RolloutStatus } from './status';

/** The pod template each side of a rollout runs: the source's, the output's stable or canary Deployment's. Pure. */

/**
 * The desired version: the source's pod template and its revision. Only the track label is taken
 * out: labels the canary patch overrides (Kruise patchPodTemplateMetadata, Argo canaryMetadata) are
 * the user's and stay on stable pods, as both controllers patch the canary pods only.
 */
export function sourcePod(r: LoadedRollout, track: TrackLabel): PodTemplateInput {
  let byTrack = sourcePods.get(r);
  if (!byTrack) sourcePods.set(r, (byTrack = new Map()));
  let pod = byTrack.get(track.key);
  if (!pod) {
    const template = stripTemplate(podTemplateOf(r.deployment), track, NO_PATCH);
    byTrack.set(track.key, (pod = { template, revision: templateRevision(template) }));
  }
  return pod;
}

/**
 * sourcePod per loaded rollout and track label key (all stripTemplate takes of it): the transition,
 * each render state and the messages ask for it, and the canonical JSON and hash cost the same each time.
 */
const sourcePods = new WeakMap<LoadedRollout, Map<string, PodTemplateInput>>();

/** The stable version: what the output runs, or the source on a first deploy. */
export function stablePod(r: LoadedRollout, output: OutputSnapshot, track: TrackLabel): PodTemplateInput {
  if (!output.status?.rollouts.some((s) => s.name === r.spec.name)) return sourcePod(r, track);
  const found = output.resources.find('Deployment', r.spec.workload.name, r.spec.namespace);
  if (!found)
    throw new StateError(
      `output has status for rollout ${r.spec.name} but no Deployment "${r.spec.workload.name}"; restore it from git history`,
    );
  const template = stripTemplate(podTemplateOf(found.object), track, r.spec.stablePodMetadata);
  return { template, revision: templateRevision(template) };
}

/**
 * The version the canary side runs. While draining, or when the status records a canary revision the
 * source has left (Argo blue-green promotes the switched revision before a newer one starts), it is the
 * one the output's canary Deployment runs, not the source's.
 */
export function canaryPodOf(
  r: LoadedRollout,
  output: OutputSnapshot,
  phase: RenderPhase,
  track: TrackLabel,
  status: RolloutStatus | undefined,
): PodTemplateInput {
  const source = sourcePod(r, track);
  if (phase.kind === 'draining') return liveCanaryPod(r, output, track) ?? source;
  const recorded = status?.canaryRevision;
  if (recorded === undefined || recorded === source.revision) return source;
  const live = liveCanaryPod(r, output, track);
  if (live?.revision === recorded) return live;
  // Promoting would give the stable Deployment the source's newer version without its steps. (With no
  // steps there is no canary Deployment: the promote commit already gave the stable one its version.)
  if (phase.kind === 'promoting' && r.plan.steps.length > 0)
    throw new StateError(
      `rollout ${r.spec.name} promotes revision ${recorded}, but the output has no Deployment "${r.spec.workload.name}-canary" running it; restore it from git history`,
    );
  return source;
}

/**
 * Ping-pong promotion leaves the stable Deployment on the old version (its Service carries no
 * traffic then); at clean-up the new stable version is the one the canary Deployment runs.
 */
export function pingPongStablePod(
  r: LoadedRollout,
  output: OutputSnapshot,
  track: TrackLabel,
  status: RolloutStatus | undefined,
): PodTemplateInput {
  const pod = stablePod(r, output, track);
  if (!r.spec.pingPong || !status || pod.revision === status.stableRevision) return pod;
  const live = liveCanaryPod(r, output, track);
  return live && live.revision === status.stableRevision ? live : pod;
}

/**
 * While draining, the canary keeps the pods it runs, even if the source changed meanwhile. The
 * patched labels are re-applied when it is rendered, and the revision is the one it was rendered
 * with (the patch may have replaced a label value the revision was computed over).
 */
function liveCanaryPod(r: LoadedRollout, output: OutputSnapshot, track: TrackLabel): PodTemplateInput | undefined {
  const found = output.resources.find('Deployment', `${r.spec.workload.name}-canary`, r.spec.namespace);
  if (!found) return undefined;
  const template = stripTemplate(podTemplateOf(found.object), track, r.spec.canaryPodMetadata);
  const recorded = found.object.metadata.annotations?.[REVISION_ANNOTATION];
  return { template, revision: recorded ?? templateRevision(template) };
}

const NO_PATCH = { labels: {}, annotations: {} };
