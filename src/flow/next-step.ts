import { ALL_TRAFFIC, BY_PODS, trafficLabel } from '../plan/traffic-label';
import { HealthPolicy } from '../io/config';
import { Gate, GateSummary, PlannedStep } from '../model/plan';
import { AppTransition } from '../state/app-state';
import type { LoadedApp, LoadedRollout } from '../spec/loaded-app';
import { Target } from './branch';
import { combineGates, selectWaitsForPerson } from './target';

/** What happens once this PR has landed: the next PR rollgen proposes and what it waits for. */
export interface NextStep {
  /** One sentence: `step 3 (60%) opens after 600 s.` */
  readonly text: string;
  /** The gate before that next PR may land; null when nothing follows. */
  readonly gate: { readonly kind: Gate['kind']; readonly seconds: number | null } | null;
  /** Templates of the analyses that must pass first. */
  readonly analyses: readonly string[];
  /** Statuses, check runs and Argo CD applications the health gate waits for (rollgen.yaml `health:`). */
  readonly health: readonly string[];
}

export interface NextStepInput {
  readonly app: LoadedApp;
  readonly transition: AppTransition;
  readonly target: Target;
  readonly health?: HealthPolicy;
}

/** What follows the merge of this PR, from the plans of the rollouts it moves. Pure. */
export function nextStep(i: NextStepInput): NextStep {
  const moving = i.transition.status.rollouts.filter((r) => i.transition.actions.some((a) => a.rollout === r.name));
  const draining = moving.some((r) => r.draining !== undefined);
  const live = moving.find((r) => r.phase === 'Progressing');
  const rollouts = moving.flatMap((m) => i.app.rollouts.filter((r) => r.spec.name === m.name));
  if (live && (i.target.kind === 'step' || i.target.kind === 'retry'))
    return afterStep(rollouts, live.step, healthOf(i.health));
  if (draining) return settled('the next PR removes the canary Deployment and Service, which then receive no traffic.');
  switch (i.target.kind) {
    case 'adopt':
      if (rollouts.some(selectWaitsForPerson)) return selectByPerson();
      return settled('the next PR switches the Services to select pods by track label; it follows by itself.');
    case 'select':
      return done('nothing until the pod template changes in the source; then rollgen opens step 1.');
    case 'promote':
      return settled('the clean-up PR follows by itself: routes to stable only, canary objects removed.');
    case 'abort':
      return done(`rollgen holds ${i.app.name}: no new PR until a new revision in the source, or \`rollgen retry\`.`);
    default:
      return done('nothing: the rollout is finished.');
  }
}

/** Argo's controller left its key in the live selectors: the switch waits until a person has removed it. */
function selectByPerson(): NextStep {
  return {
    text:
      'the next PR switches the Services to select pods by track label and waits for a person to merge it: ' +
      "first remove `rollouts-pod-template-hash` from the live Services' selectors and delete the Rollout " +
      '(docs/migration.md), or the switched Services would select no pod.',
    gate: { kind: 'manual', seconds: null },
    analyses: [],
    health: [],
  };
}

function afterStep(rollouts: readonly LoadedRollout[], step: number, health: readonly string[]): NextStep {
  const planned = rollouts.map((r) => r.plan.steps);
  const gate = combineGates(planned.map((steps) => steps[step - 1]?.gate ?? { kind: 'manual' }));
  const analyses = [...new Set(planned.flatMap((steps) => templatesOf(steps[step - 1]?.analysis)))];
  const following = planned.map((steps) => steps[step]).find((s): s is PlannedStep => s !== undefined);
  const name = following ? `step ${following.index} (${following.name ?? share(following)})` : 'promotion';
  const checks = [
    ...(health.length > 0 ? [`the health gate (${health.join(', ')}) on step ${step}`] : []),
    ...(analyses.length > 0 ? [`analysis ${analyses.map((a) => `\`${a}\``).join(', ')}`] : []),
  ];
  const named = checks.join(' and ');
  const pass = checks.length > 1 ? 'pass' : 'passes';
  const merges = 'rollgen merges it once its checks are green.';
  const text =
    gate.kind === 'manual'
      ? `${name} opens after a person merges its PR${named ? `; the PR shows whether ${named} ${pass}` : ''}.`
      : gate.kind === 'timed'
        ? `${name} opens after ${gate.seconds} s${named ? ` and once ${named} ${pass}` : ''}; ${merges}`
        : `${name} follows ${named ? `once ${named} ${pass}` : 'at once'}; ${merges}`;
  return { text, gate: { kind: gate.kind, seconds: gate.kind === 'timed' ? gate.seconds : null }, analyses, health };
}

function share(s: PlannedStep): string {
  const label = trafficLabel(s);
  if (label === BY_PODS) return `${s.canaryReplicas} pods`;
  return label === ALL_TRAFFIC ? 'all traffic: no stable pod' : label;
}

function templatesOf(gates: readonly GateSummary[] | undefined): string[] {
  return (gates ?? []).flatMap((g) => (g.templates.length > 0 ? g.templates : [g.id]));
}

function healthOf(h: HealthPolicy | undefined): string[] {
  if (!h) return [];
  return [...h.statuses, ...h.checkRuns, ...(h.argocd ? [`Argo CD application ${h.argocd.application}`] : [])];
}

/** Something follows by itself (an automatic gate). */
function settled(text: string): NextStep {
  return { text, gate: { kind: 'automatic', seconds: null }, analyses: [], health: [] };
}

function done(text: string): NextStep {
  return { text, gate: null, analyses: [], health: [] };
}
