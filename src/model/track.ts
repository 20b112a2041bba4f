/** The pod label that splits stable from canary pods; users with an existing label (e.g. version: base|canary) pick theirs. */
export interface TrackLabel {
  readonly key: string;
  readonly stable: string;
  readonly canary: string;
}

export const defaultTrackLabel: TrackLabel = { key: 'rollgen.dev/track', stable: 'stable', canary: 'canary' };

export const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
export const SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';

/**
 * Canary workloads carry Argo CD's PruneLast: when a commit removes them, Argo CD deletes them only
 * after every other change of the sync is applied and healthy. Routes that are edited in place
 * (VirtualService, HTTPRoute, ALB actions) rather than deleted then leave the canary first, whatever
 * order the sync would otherwise use. Options the user wrote are kept.
 */
export function withPruneLast<M extends { annotations?: Readonly<Record<string, string>> }>(meta: M): M {
  const existing = meta.annotations?.[SYNC_OPTIONS];
  const options = (existing ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '' && !o.startsWith('PruneLast='));
  return {
    ...meta,
    annotations: { ...(meta.annotations ?? {}), [SYNC_OPTIONS]: [...options, 'PruneLast=true'].join(',') },
  };
}
export const REVISION_ANNOTATION = 'rollgen.dev/revision';
export const CANARY_SUFFIX = '-canary';

/**
 * Argo pingPong: pods carry the name of the Service that serves them (ping or pong) and the two
 * Services select by it, so no Service selector changes once adopted; pods move between Services
 * instead, and only while their Service carries no traffic.
 */
export const PING_PONG_LABEL = 'rollgen.dev/ping-pong';
