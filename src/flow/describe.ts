import { AppTransition } from '../state/app-state';
import { Target } from './branch';

/** One line saying what a PR or commit does, for titles and commit subjects. Pure. */
export function describeTarget(target: Target, t: AppTransition): string {
  const moving = t.status.rollouts.filter((r) => t.actions.some((a) => a.rollout === r.name));
  // Two-commit removal: this commit only moves routes; saying "canary removed" would be untrue.
  const draining = moving.some((r) => r.draining !== undefined);
  const removed = draining ? 'routes to stable, canary workloads next' : 'canary removed';
  const steps = Math.max(0, ...moving.map((r) => r.steps));
  const revision = moving.map((r) => r.canaryRevision).find((r) => r !== undefined) ?? moving[0]?.stableRevision ?? '';
  const named = t.stepNames?.[target.kind === 'step' ? target.step - 1 : -1];
  const suffix = named ? `: ${named}` : '';
  switch (target.kind) {
    case 'step':
      return target.step === 1
        ? `start ${revision}: step 1 of ${steps}${suffix}`
        : `step ${target.step} of ${steps} (${revision})${suffix}`;
    case 'adopt':
      return 'adopt: track label on the pods';
    case 'select':
      return 'adopt: Services select pods by track label';
    case 'promote':
      return `promote ${revision} to stable${t.stepNames ? ': scale down old' : ''}`;
    case 'cleanup':
      return `clean up after ${revision}: ${removed}`;
    case 'revert':
      return `source back to stable: ${removed}`;
    case 'remove':
      return `remove the drained canary workloads of ${revision}`;
    case 'abort':
      return `abort ${revision}: all traffic to stable, ${draining ? 'canary workloads next' : 'canary removed'}`;
    case 'retry':
      return `retry ${revision} from step 1 of ${steps}`;
  }
}
