import { TrackLabel } from '../model/track';
import { AppTransition, OutputSnapshot } from '../state/app-state';
import { sourcePod, stablePod } from '../state/pods';
import type { LoadedApp } from '../spec/loaded-app';
import { ImageChange, templateChange } from './template-change';

/** One rollout's pod-template change as a reviewer reads it. */
export interface RolloutChange {
  readonly rollout: string;
  /** Stable and new revision (pod-template hashes). */
  readonly from: string;
  readonly to: string;
  readonly images: readonly ImageChange[];
  /** Other changed pod-template fields by path: `spec.containers[app].env`, `metadata.annotations`. */
  readonly fields: readonly string[];
}

/**
 * For each rollout the transition moves: what the output runs as stable against what the source
 * asks for. Rollouts whose two templates are the same (an adoption, a clean-up after promotion) have
 * no change to show and are left out. Pure.
 */
export function rolloutChanges(
  app: LoadedApp,
  t: AppTransition,
  before: OutputSnapshot,
  track: TrackLabel,
): RolloutChange[] {
  const moving = new Set(t.actions.map((a) => a.rollout));
  return app.rollouts
    .filter((r) => moving.has(r.spec.name))
    .flatMap((r) => {
      const from = stablePod(r, before, track);
      const to = sourcePod(r, track);
      if (from.revision === to.revision) return [];
      const change = templateChange(from.template, to.template);
      return [{ rollout: r.spec.name, from: from.revision, to: to.revision, ...change }];
    });
}
