import { KubeObject, cloneJson, isObject } from '../model/kube';
import { PodMetadataPatch } from '../model/rollout';
import { CANARY_SUFFIX, PING_PONG_LABEL, REVISION_ANNOTATION, TrackLabel, withPruneLast } from '../model/track';

type Json = Record<string, unknown>;

export interface PodTemplateInput {
  readonly template: Json;
  readonly revision: string;
}

/**
 * The stable Deployment: the source object (so replicas, strategy and labels the user edits apply at once)
 * running the stable template. Its selector is left alone: it is immutable in Kubernetes.
 */
export function renderStableDeployment(
  source: KubeObject,
  pod: PodTemplateInput,
  replicas: number,
  track: TrackLabel,
  patch: PodMetadataPatch,
): KubeObject {
  const out = cloneJson(source) as Json & KubeObject;
  const spec = { ...(out.spec as Json) };
  spec.replicas = replicas;
  spec.template = labelTemplate(pod.template, { ...patch.labels, [track.key]: track.stable }, patch.annotations);
  return { ...out, metadata: annotate(out.metadata, pod.revision), spec };
}

/** `<name>-canary`: the new template with the canary track label and the rollout's pod metadata patch. */
export function renderCanaryDeployment(
  source: KubeObject,
  pod: PodTemplateInput,
  replicas: number,
  track: TrackLabel,
  patch: PodMetadataPatch,
): KubeObject {
  const out = cloneJson(source) as Json & KubeObject;
  const spec = { ...(out.spec as Json) };
  const selector = isObject(spec.selector) ? spec.selector : {};
  spec.replicas = replicas;
  spec.selector = {
    ...selector,
    matchLabels: { ...(isObject(selector.matchLabels) ? selector.matchLabels : {}), [track.key]: track.canary },
  };
  spec.template = labelTemplate(pod.template, { ...patch.labels, [track.key]: track.canary }, patch.annotations);
  const name = `${source.metadata.name}${CANARY_SUFFIX}`;
  return { ...out, metadata: withPruneLast(annotate({ ...out.metadata, name }, pod.revision)), spec };
}

/** Adoption, first commit: pods get the track label while Services still select without it. */
export function labelTemplate(
  template: Json,
  labels: Record<string, string>,
  annotations: Readonly<Record<string, string>> = {},
): Json {
  const t = cloneJson(template);
  const meta = isObject(t.metadata) ? t.metadata : {};
  const merged: Json = { ...meta, labels: { ...(isObject(meta.labels) ? meta.labels : {}), ...labels } };
  if (Object.keys(annotations).length > 0)
    merged.annotations = { ...(isObject(meta.annotations) ? meta.annotations : {}), ...annotations };
  return { ...t, metadata: merged };
}

/** Removes what rollgen added to a pod template, giving back the form a revision is computed from. */
export function stripTemplate(template: Json, track: TrackLabel, patch: PodMetadataPatch): Json {
  const t = cloneJson(template);
  const meta = isObject(t.metadata) ? { ...t.metadata } : {};
  meta.labels = without(meta.labels, [track.key, PING_PONG_LABEL, ...Object.keys(patch.labels)]);
  meta.annotations = without(meta.annotations, Object.keys(patch.annotations));
  for (const key of ['labels', 'annotations']) if (Object.keys(meta[key] as Json).length === 0) delete meta[key];
  return { ...t, metadata: meta };
}

function without(map: unknown, keys: readonly string[]): Json {
  const out: Json = { ...(isObject(map) ? map : {}) };
  for (const k of keys) delete out[k];
  return out;
}

function annotate(meta: KubeObject['metadata'], revision: string): KubeObject['metadata'] {
  return { ...meta, annotations: { ...(meta.annotations ?? {}), [REVISION_ANNOTATION]: revision } };
}

export function podTemplateOf(deployment: KubeObject): Json {
  const spec = isObject(deployment.spec) ? deployment.spec : {};
  return isObject(spec.template) ? spec.template : {};
}

export function replicasOf(deployment: KubeObject): number {
  const spec = isObject(deployment.spec) ? deployment.spec : {};
  return typeof spec.replicas === 'number' ? spec.replicas : 1;
}
