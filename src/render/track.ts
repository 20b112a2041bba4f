/** The pod label that splits stable from canary pods; users with an existing label (e.g. version: base|canary) pick theirs. */
export interface TrackLabel {
  readonly key: string;
  readonly stable: string;
  readonly canary: string;
}

export const defaultTrackLabel: TrackLabel = { key: 'rollgen.dev/track', stable: 'stable', canary: 'canary' };

export const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
export const REVISION_ANNOTATION = 'rollgen.dev/revision';
export const CANARY_SUFFIX = '-canary';
