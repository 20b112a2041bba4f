import { Gate, PlannedStep } from '../model/plan';
import { GateSignalsView, GateView, StatusInput } from './status-types';
import { activeServesCanary, switchStepOf } from './lifecycle';

/** The gate before a rollout's next move, for the status view (status-view.ts). Pure; `now` is given. */

export function sourceChanged(i: StatusInput): boolean {
  const s = i.status;
  if (!s) return false;
  return i.sourceRevision !== (s.canaryRevision ?? s.stableRevision);
}

/**
 * Blue-green after its switch with a newer source revision: the active Service serves the running one,
 * so it is promoted first (behind its own gate) and the newer one is previewed against it after.
 */
export function promotesFirst(i: StatusInput): boolean {
  return sourceChanged(i) && activeServesCanary(i.status, switchStepOf(i.plan.steps));
}

/** The gate before the next move, per phase; null when nothing moves next (healthy and up to date). */
export function gateView(i: StatusInput): GateView | null {
  const s = i.status;
  const plan = i.plan;
  if (!s) return fixedGate('first deploy', { kind: 'manual' }, 'running advance (or merging its PR) adopts the app');
  if (s.draining !== undefined)
    return fixedGate('removing the canary workloads', { kind: 'automatic' }, 'the next advance removes them');
  switch (s.phase) {
    case 'Adopting':
      return fixedGate('selecting pods by track label', { kind: 'automatic' }, 'the next advance does it');
    case 'Promoting':
      return fixedGate('clean-up', { kind: 'automatic' }, 'the next advance removes the canary');
    case 'Aborted':
      return sourceChanged(i)
        ? startGate(i)
        : fixedGate('retry', { kind: 'manual' }, 'a person retries it, or changes the source');
    case 'Healthy':
      return sourceChanged(i) ? startGate(i) : null;
    case 'Progressing': {
      if (sourceChanged(i) && !promotesFirst(i))
        return fixedGate('restart at step 1', { kind: 'automatic' }, 'the source has a new revision');
      const before = s.step >= plan.steps.length ? 'promote' : `step ${s.step + 1}`;
      const step = plan.steps[s.step - 1];
      return withAnalysis(i, stepGate(i, before, step?.gate ?? { kind: 'manual' }), step);
    }
  }
}

function startGate(i: StatusInput): GateView {
  const g = i.plan.startGate;
  return fixedGate('step 1', g, g.kind === 'manual' ? 'a person starts the rollout' : 'starts at the next advance');
}

function fixedGate(before: string, g: Gate, detail: string): GateView {
  return {
    before,
    kind: g.kind,
    seconds: g.kind === 'timed' ? g.seconds : null,
    since: null,
    remaining: null,
    passed: g.kind === 'automatic',
    analysis: [],
    detail,
  };
}

/** A step's own gate: a timed one counts from the landing the git history records. */
function stepGate(i: StatusInput, before: string, g: Gate): GateView {
  const held = signalHold(i.signals);
  if (g.kind !== 'timed') {
    const detail = g.kind === 'manual' ? 'waits for a person (a pause without duration)' : 'passes at once';
    return { ...fixedGate(before, g, held ?? detail), passed: g.kind === 'automatic' && !held };
  }
  if (!i.landedAt)
    return {
      ...fixedGate(before, g, `${g.seconds}s from the commit that lands this step; it is not committed yet`),
      passed: false,
    };
  const remaining = Math.max(0, Math.ceil((i.landedAt.getTime() + g.seconds * 1000 - i.now.getTime()) / 1000));
  const detail = remaining > 0 ? `${remaining}s left of ${g.seconds}s` : `${g.seconds}s passed`;
  return {
    ...fixedGate(before, g, held ? `${detail}; ${held}` : detail),
    since: i.landedAt.toISOString(),
    remaining,
    passed: remaining === 0 && !held,
  };
}

/** A gate with analysis: offline its verdict is unknown, so the gate is not known to have passed. */
function withAnalysis(i: StatusInput, g: GateView, step: PlannedStep | undefined): GateView {
  const analysis = (step?.analysis ?? []).map((a) => `${a.templates.join('+')} (${a.kind})`);
  if (analysis.length === 0) return g;
  if (i.signals?.analysis) return { ...g, analysis };
  const unread = `analysis ${analysis.join(', ')} must pass too (\`rollgen status --pr\` reads its verdict, \`rollgen analyze ${i.target}\` runs it now)`;
  return { ...g, analysis, passed: false, detail: `${g.detail}; ${unread}` };
}

/** Health and analysis that hold a gate although its own time or approval passed. */
export function signalHold(s: GateSignalsView | null): string | undefined {
  if (s?.health?.state === 'waiting') return `waiting for health: ${s.health.detail}`;
  if (s?.health?.state === 'failed') return `health failed: ${s.health.detail}`;
  if (s?.analysis && s.analysis.verdict !== 'successful') return `analysis ${s.analysis.verdict}: ${s.analysis.detail}`;
  return undefined;
}
