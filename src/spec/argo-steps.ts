import { AnalysisRequest, originOf, readRequest } from '../model/analysis-request';
import { Diagnostic } from '../diagnostics';
import { ParsedDocument } from '../yaml/parse';
import { combinedGate, holdForUnrunStep } from './argo-held-steps';
import { readExperiment } from './argo-experiment';
import {
  MirrorRoute,
  NamedRoute,
  PauseSpec,
  ReplicaAmount,
  RouteMatch,
  StepSpec,
  StringMatchType,
  ValueMatch,
} from '../model/rollout';
import { arr, num, obj, str } from '../model/values';

/**
 * Argo canary steps -> rollgen steps. Argo applies every part of a step (validation refuses only two
 * of setWeight, pause, experiment and analysis together): the actions make one rollgen step, and
 * its pause, analysis, experiment or plugin is the gate after it.
 */

type Path = (string | number)[];

/** The state Argo accumulates while walking its steps; each state-changing entry snapshots it as one step. */
export interface WalkState {
  weight: number;
  scale?: ReplicaAmount;
  /** Where a scale of no pods was set, until a step that sends the canary traffic is warned of it. */
  zeroScaleAt?: Path;
  headerRoutes: Map<string, NamedRoute>;
  mirrorRoutes: Map<string, MirrorRoute>;
}

export interface WalkContext {
  readonly managed: readonly string[];
  readonly weightTotal: number;
  readonly routed: boolean;
  /** The Argo traffic routers written (`alb`, `istio`, ...): an experiment weight needs one that routes it. */
  readonly routers: readonly string[];
}

/** The rollgen steps, and for each the index of the Argo step entry that made it (to place `startingStep`). */
export function walkSteps(
  doc: ParsedDocument,
  raw: unknown[],
  wc: WalkContext,
  out: Diagnostic[],
): { steps: StepSpec[]; entryOfStep: number[]; startHold?: PauseSpec } {
  const steps: StepSpec[] = [];
  const entryOfStep: number[] = [];
  const leading: AnalysisRequest[] = [];
  const state: WalkState = { weight: 0, headerRoutes: new Map(), mirrorRoutes: new Map() };
  let startHold: PauseSpec | undefined;
  const holdStart = (gate: PauseSpec) => void (startHold = combinedGate(startHold ?? { kind: 'none' }, gate));
  raw.forEach((entry, i) => {
    const e = obj(entry);
    const path: Path = ['spec', 'strategy', 'canary', 'steps', i];
    if (!oneKindOfStep(doc, e, path, out)) return;
    // Argo applies every part of a step: its actions first, then it waits as its pause, analysis, experiment or plugin says.
    if (ACTIONS.some((a) => e[a] !== undefined)) {
      applyActions(doc, state, e, path, wc, out);
      warnTrafficWithoutPods(doc, state, out);
      steps.push(snapshot(doc.locate(path), state, wc.managed));
      entryOfStep.push(i);
    } else if (Object.keys(e).length === 0)
      out.push({ ...doc.locate(path), message: 'an empty step does nothing; remove it', severity: 'warning' });
    if (e.pause !== undefined) applyPause(doc, steps, e.pause, path, holdStart, out);
    if (e.analysis !== undefined) applyAnalysis(doc, steps, leading, e.analysis, path, out);
    if (e.experiment !== undefined) applyExperiment(doc, steps, e.experiment, path, wc, holdStart, out);
    if (e.plugin !== undefined && !holdForUnrunStep(steps)) holdStart({ kind: 'manual' });
    if (e.setCanaryScale !== undefined) warnScaleCompletesFirst(doc, e, path, out);
  });
  // Analyses and no action (`steps: [analysis]`): Argo runs them with no canary pods, then promotes; so does step 1 here.
  if (leading.length > 0 && !steps[0]) {
    steps.push(snapshot(originOf(leading[0].at), state, wc.managed));
    entryOfStep.push(raw.length - 1);
  }
  if (leading.length > 0) steps[0] = { ...steps[0], analyses: [...leading, ...(steps[0].analyses ?? [])] };
  return { steps, entryOfStep, ...(startHold ? { startHold } : {}) };
}

/** The parts of a step that change what runs or where traffic goes; a step may hold several (Argo's validation allows it). */
const ACTIONS = ['setWeight', 'setCanaryScale', 'setHeaderRoute', 'setMirrorRoute'] as const;
/** Argo's validation refuses a step with two of these (hasMultipleStepsType); any other mix is one step. */
const EXCLUSIVE = ['setWeight', 'pause', 'experiment', 'analysis'] as const;

function oneKindOfStep(doc: ParsedDocument, e: Record<string, unknown>, path: Path, out: Diagnostic[]): boolean {
  const kinds = EXCLUSIVE.filter((k) => e[k] !== undefined);
  if (kinds.length < 2) return true;
  out.push(
    error(
      doc,
      [...path, kinds[1]],
      `a step may hold only one of setWeight, pause, experiment and analysis (as Argo), this one has ${kinds.join(' and ')}; split it into ${kinds.length} steps`,
    ),
  );
  return false;
}

/**
 * Argo ends a step holding setCanaryScale as soon as the canary pods are ready (completedCurrentCanaryStep
 * checks setCanaryScale before analysis), cancelling the analysis it started. rollgen waits for the
 * analysis instead, the stricter reading; said at the field. (An experiment or plugin there makes the
 * gate manual, which the field ledger says.)
 */
function warnScaleCompletesFirst(doc: ParsedDocument, e: Record<string, unknown>, path: Path, out: Diagnostic[]): void {
  if (e.analysis === undefined) return;
  out.push({
    ...doc.locate([...path, 'analysis']),
    message:
      'Argo ends a step with setCanaryScale once its canary pods are ready, without waiting for the analysis in the same step; rollgen waits for the analysis before the next step. Put the analysis in a step of its own to say so',
    severity: 'warning',
  });
}

/** A step analysis gates the step before it, like a pause; one before any step gates step 1 (there is no canary before it). */
function applyAnalysis(
  doc: ParsedDocument,
  steps: StepSpec[],
  leading: AnalysisRequest[],
  analysis: unknown,
  path: Path,
  out: Diagnostic[],
): void {
  const request = readRequest(analysis, doc.locate, [...path, 'analysis']);
  const previous = steps[steps.length - 1];
  if (!previous) {
    out.push({
      ...doc.locate([...path, 'analysis']),
      message:
        'an analysis before any setWeight/setCanaryScale runs with no canary pods; rollgen runs it at the gate of step 1',
      severity: 'warning',
    });
    leading.push(request);
    return;
  }
  steps[steps.length - 1] = { ...previous, analyses: [...(previous.analyses ?? []), request] };
}

/**
 * An experiment runs beside the step before it: committed with it, gating it as its duration and
 * analyses say, gone with the next commit. Before any step there is no commit to run it with: a
 * person starts the rollout instead (as Argo holds there), said at the field.
 */
function applyExperiment(
  doc: ParsedDocument,
  steps: StepSpec[],
  raw: unknown,
  path: Path,
  wc: WalkContext,
  holdStart: (gate: PauseSpec) => void,
  out: Diagnostic[],
): void {
  const previous = steps[steps.length - 1];
  if (!previous) {
    out.push({
      ...doc.locate([...path, 'experiment']),
      message:
        'an experiment before any setWeight/setCanaryScale is not run by rollgen (it is committed with the step before it); a person starts the rollout instead. Put a step before it to run it',
      severity: 'warning',
    });
    return holdStart({ kind: 'manual' });
  }
  const { experiment, gate } = readExperiment(doc, raw, [...path, 'experiment'], wc.routers, out);
  if (previous.experiment)
    out.push(
      error(
        doc,
        [...path, 'experiment'],
        'two experiments after one step: rollgen runs one per step; put a step between them',
      ),
    );
  const shares = experiment.templates.reduce((n, t) => n + (t.weight ?? 0), 0);
  if (shares > 0 && (previous.weight ?? 0) + shares > wc.weightTotal)
    out.push(
      error(
        doc,
        [...path, 'experiment'],
        `the experiment's weights (${shares}) and the canary's (${previous.weight ?? 0}) exceed the whole (${wc.weightTotal}): they are taken from the stable share`,
      ),
    );
  steps[steps.length - 1] = { ...previous, experiment, pause: combinedGate(previous.pause, gate) };
}

/** A pause gates the step before it; a leading one holds the start of the rollout, as Argo holds it before its first step. */
function applyPause(
  doc: ParsedDocument,
  steps: StepSpec[],
  pause: unknown,
  path: Path,
  holdStart: (gate: PauseSpec) => void,
  out: Diagnostic[],
): void {
  const seconds = parseDuration(obj(pause).duration);
  const gate: PauseSpec = seconds === undefined ? { kind: 'manual' } : { kind: 'timed', seconds };
  const previous = steps[steps.length - 1];
  if (!previous) {
    if (gate.kind === 'timed' && gate.seconds === 0) return;
    if (gate.kind === 'timed')
      out.push({
        ...doc.locate([...path, 'pause']),
        message: `a pause of ${gate.seconds}s before the first step: Argo waits that long once the new version appears; rollgen cannot count from there, so a person starts the rollout (step 1 waits for a manual gate)`,
        severity: 'warning',
      });
    return holdStart(gate);
  }
  steps[steps.length - 1] = { ...previous, pause: combinedGate(previous.pause, gate) };
}

function applyActions(
  doc: ParsedDocument,
  state: WalkState,
  e: Record<string, unknown>,
  path: Path,
  wc: WalkContext,
  out: Diagnostic[],
): void {
  if (num(e.setWeight) !== undefined) state.weight = num(e.setWeight)!;
  if (e.setCanaryScale !== undefined) {
    // As Argo's validation: without traffic routing the controller ignores the scale, so it is an error.
    if (!wc.routed)
      out.push(
        error(
          doc,
          [...path, 'setCanaryScale'],
          'setCanaryScale requires trafficRouting (Argo ignores it for a basic canary); remove it or add trafficRouting',
        ),
      );
    state.scale = canaryScale(obj(e.setCanaryScale), wc.weightTotal);
    const none = state.scale && ('count' in state.scale ? state.scale.count : state.scale.percent) === 0;
    state.zeroScaleAt = none ? [...path, 'setCanaryScale'] : undefined;
  }
  if (e.setHeaderRoute !== undefined) setRoute(state.headerRoutes, obj(e.setHeaderRoute), headerRouteMatches);
  if (e.setMirrorRoute !== undefined) setMirror(state.mirrorRoutes, obj(e.setMirrorRoute));
}

/**
 * A step that sends the canary traffic always runs a canary pod (plan/replicas.ts): Argo would
 * route that traffic to a Service with no endpoints. Said once, where the scale of no pods was set.
 */
function warnTrafficWithoutPods(doc: ParsedDocument, state: WalkState, out: Diagnostic[]): void {
  if (!state.zeroScaleAt || (state.weight === 0 && state.headerRoutes.size === 0)) return;
  const sends = state.weight > 0 ? `setWeight ${state.weight}` : 'a header route';
  out.push({
    ...doc.locate(state.zeroScaleAt),
    message:
      `setCanaryScale gives the canary no pods while a step sends it traffic (${sends}): Argo would send ` +
      'that traffic to no pods; rollgen runs 1 canary pod. Scale to 1 or more, or send no traffic while it has none',
    severity: 'warning',
  });
  state.zeroScaleAt = undefined;
}

export function snapshot(origin: StepSpec['origin'], s: WalkState, managed: readonly string[]): StepSpec {
  const order = (a: NamedRoute, b: NamedRoute) => managed.indexOf(a.name) - managed.indexOf(b.name);
  return {
    origin,
    ...(s.scale ? { replicas: s.scale } : {}),
    weight: s.weight,
    matches: [],
    headerRoutes: [...s.headerRoutes.values()].sort(order),
    mirrorRoutes: [...s.mirrorRoutes.values()].sort(order),
    pause: { kind: 'none' },
  };
}

/** A scale weight is in units of maxTrafficWeight, like setWeight. */
function canaryScale(v: Record<string, unknown>, weightTotal: number): ReplicaAmount | undefined {
  if (num(v.replicas) !== undefined) return { count: num(v.replicas)! };
  if (num(v.weight) !== undefined) return { percent: (num(v.weight)! * 100) / weightTotal };
  return undefined; // matchTrafficWeight: back to the setWeight rule
}

function setRoute(
  routes: Map<string, NamedRoute>,
  v: Record<string, unknown>,
  read: (m: unknown[]) => RouteMatch[],
): void {
  const name = str(v.name) ?? '';
  if (v.match === undefined) routes.delete(name);
  else routes.set(name, { name, matches: read(arr(v.match)) });
}

function setMirror(routes: Map<string, MirrorRoute>, v: Record<string, unknown>): void {
  const name = str(v.name) ?? '';
  if (v.match === undefined) routes.delete(name);
  else routes.set(name, { name, matches: mirrorMatches(arr(v.match)), percentage: num(v.percentage) ?? 100 });
}

/** Argo header routes: each entry is its own match block, so entries are ORed. */
function headerRouteMatches(list: unknown[]): RouteMatch[] {
  return list.map((m) => {
    const e = obj(m);
    return { headers: [stringMatch(str(e.headerName) ?? '', e.headerValue)], queryParams: [], cookies: [] };
  });
}

function mirrorMatches(list: unknown[]): RouteMatch[] {
  return list.map((m) => {
    const e = obj(m);
    const headers = Object.entries(obj(e.headers)).map(([k, v]) => stringMatch(k, v));
    const path = e.path !== undefined ? stringMatch('', e.path) : undefined;
    // exact, regex or prefix (the schema allows exactly one); each provider says which it can express.
    const method = e.method !== undefined ? stringMatch('', e.method) : undefined;
    return {
      headers,
      queryParams: [],
      cookies: [],
      ...(path
        ? { path: { type: path.type === 'Prefix' ? 'PathPrefix' : path.type, value: path.value } as RouteMatch['path'] }
        : {}),
      ...(method ? { method: { type: method.type, value: method.value } } : {}),
    };
  });
}

function stringMatch(name: string, v: unknown): ValueMatch {
  const m = obj(v);
  const type: StringMatchType =
    m.exact !== undefined ? 'Exact' : m.regex !== undefined ? 'RegularExpression' : 'Prefix';
  return { name, type, value: String(m.exact ?? m.regex ?? m.prefix ?? '') };
}

/** Argo durations: an integer (seconds) or a string with an s, m or h suffix. */
export function parseDuration(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  const m = /^(\d+)(s|m|h)?$/.exec(v.trim());
  if (!m) return undefined;
  return Number(m[1]) * ({ s: 1, m: 60, h: 3600 } as const)[(m[2] ?? 's') as 's' | 'm' | 'h'];
}

function error(doc: ParsedDocument, path: Path, message: string): Diagnostic {
  return { ...doc.locate(path), message, severity: 'error' };
}
