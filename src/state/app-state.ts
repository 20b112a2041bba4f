import { InputError, StateError } from '../errors';
import { ResourceSet } from '../model/resource-set';
import { RenderPhase } from '../render/phase';
import { RolloutRenderState } from '../render/render-app';
import { templateRevision } from '../render/revision';
import { TrackLabel } from '../render/track';
import { PodTemplateInput, podTemplateOf, stripTemplate } from '../render/workload';
import { LoadedApp, LoadedRollout } from '../spec/load-app';
import { Removal, Transition, abortRollout, advanceRollout, promoteRollout, renderPhaseOf, retryRollout } from './lifecycle';
import { AppStatus, RolloutStatus } from './status';

/** What the output directory holds now: the stable state. */
export interface OutputSnapshot {
  readonly status?: AppStatus;
  readonly resources: ResourceSet;
  readonly kustomization?: string;
}

export type AppCommand = { readonly kind: 'advance' } | { readonly kind: 'abort' } | { readonly kind: 'promote'; readonly full: boolean } | { readonly kind: 'retry' };

export interface AppTransition {
  readonly status: AppStatus;
  readonly actions: readonly { readonly rollout: string; readonly action: string }[];
  readonly states: readonly RolloutRenderState[];
}

/** The desired version: the source's pod template and its revision. */
export function sourcePod(r: LoadedRollout, track: TrackLabel): PodTemplateInput {
  const template = stripTemplate(podTemplateOf(r.deployment), track, r.spec.canaryPodMetadata);
  return { template, revision: templateRevision(template) };
}

/** The stable version: what the output runs, or the source on a first deploy. */
export function stablePod(r: LoadedRollout, output: OutputSnapshot, track: TrackLabel): PodTemplateInput {
  if (!output.status?.rollouts.some((s) => s.name === r.spec.name)) return sourcePod(r, track);
  const found = output.resources.find('Deployment', r.spec.workload.name, r.spec.namespace);
  if (!found) throw new StateError(`output has status for rollout ${r.spec.name} but no Deployment "${r.spec.workload.name}"; restore it from git history`);
  const template = stripTemplate(podTemplateOf(found.object), track, r.spec.stablePodMetadata);
  return { template, revision: templateRevision(template) };
}

/** Applies a command to every rollout of the app and returns the new status and what to render. Pure. */
export function transitionApp(app: LoadedApp, output: OutputSnapshot, command: AppCommand, track: TrackLabel, removal: Removal = 'one-commit'): AppTransition {
  const previous = output.status;
  const actions: { rollout: string; action: string }[] = [];
  const statuses = app.rollouts.map((r) => {
    const current = previous?.rollouts.find((s) => s.name === r.spec.name);
    const t = applyCommand(command, current, r, track, removal);
    if (t) actions.push({ rollout: r.spec.name, action: t.action });
    return t?.status ?? current!;
  });
  const history = [...(previous?.history ?? []), ...actions.map((a) => historyEntry(a, statuses))];
  const status: AppStatus = { app: app.name, rollouts: statuses, files: previous?.files ?? [], history };
  const states = app.rollouts.map((r, i) => renderState(r, output, renderPhaseOf(statuses[i]), track));
  return { status, actions, states };
}

function applyCommand(command: AppCommand, current: RolloutStatus | undefined, r: LoadedRollout, track: TrackLabel, removal: Removal): Transition | undefined {
  const revision = sourcePod(r, track).revision;
  if (command.kind === 'advance') return advanceRollout(current, r.spec.name, revision, r.plan.steps.length, removal);
  if (!current) throw new StateError(`rollout ${r.spec.name} has not been deployed yet; run advance first`);
  if (command.kind === 'abort') return current.phase === 'Progressing' ? abortRollout(current, removal) : undefined;
  if (command.kind === 'retry') return current.phase === 'Aborted' ? retryRollout(current) : undefined;
  return current.phase === 'Progressing' ? promoteRollout(current, command.full) : undefined;
}

function historyEntry(a: { rollout: string; action: string }, statuses: readonly RolloutStatus[]) {
  const s = statuses.find((x) => x.name === a.rollout)!;
  return { rollout: a.rollout, action: a.action, step: s.step, revision: s.canaryRevision ?? s.stableRevision };
}

export function renderState(r: LoadedRollout, output: OutputSnapshot, phase: RenderPhase, track: TrackLabel): RolloutRenderState {
  const canaryPod = phase.kind === 'draining' ? liveCanaryPod(r, output, track) ?? sourcePod(r, track) : sourcePod(r, track);
  return { rollout: r, phase, stablePod: stablePod(r, output, track), canaryPod };
}

/** While draining, the canary keeps the pods it runs, even if the source changed meanwhile. */
function liveCanaryPod(r: LoadedRollout, output: OutputSnapshot, track: TrackLabel): PodTemplateInput | undefined {
  const found = output.resources.find('Deployment', `${r.spec.workload.name}-canary`, r.spec.namespace);
  if (!found) return undefined;
  const template = stripTemplate(podTemplateOf(found.object), track, r.spec.canaryPodMetadata);
  return { template, revision: templateRevision(template) };
}

/** `render --step N`: every rollout at step N (0 = stable only), from the current stable state. */
export function statesAtStep(app: LoadedApp, output: OutputSnapshot, step: number, track: TrackLabel): RolloutRenderState[] {
  return app.rollouts.map((r) => {
    if (step > r.plan.steps.length) {
      throw new InputError([{ ...r.spec.origin, message: `rollout ${r.spec.name} has ${r.plan.steps.length} steps; --step ${step} does not exist`, severity: 'error' }]);
    }
    return renderState(r, output, step === 0 ? { kind: 'stable' } : { kind: 'step', step }, track);
  });
}
