import { GateAnalysis, RolloutAnalysis } from './types';

/**
 * The analyses that must pass before rollgen step `step` (1-based) may move on: the step's own
 * analyses (Argo step `analysis` entries between this step and the next: they run until complete)
 * and the background analysis from its startingStep on (it runs at every later gate; it passes a
 * gate while no metric has failed, and ends Successful when the rollout completes). Pure.
 */
export function gatesOf(analysis: RolloutAnalysis | undefined, step: number): GateAnalysis[] {
  if (!analysis) return [];
  const own = (analysis.steps[step] ?? []).map(
    (spec, i, all): GateAnalysis => ({
      kind: 'step',
      id: all.length > 1 ? `step-${step}-${i + 1}` : `step-${step}`,
      spec,
    }),
  );
  const bg = analysis.background;
  const background: GateAnalysis[] =
    bg && step >= bg.startingStep ? [{ kind: 'background', id: 'background', spec: bg.spec }] : [];
  const experiment = (analysis.experiments?.[step] ?? []).map(
    (spec, i): GateAnalysis => ({ kind: 'background', id: `step-${step}-experiment-${i + 1}`, spec }),
  );
  return [...own, ...experiment, ...background];
}

/** Whether a gate's analysis lets the step move on, given its verdict phase: a step analysis must be Successful; a background one must not have ended badly. */
export function analysisPasses(kind: GateAnalysis['kind'], phase: string): boolean {
  if (kind === 'step') return phase === 'Successful';
  return phase === 'Successful' || phase === 'Running' || phase === 'Pending';
}
