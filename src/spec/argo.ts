import { AnalysisRequest, readRequest } from '../model/analysis-request';
import type { ProviderInputs } from '../contract/inputs';
import { Diagnostic } from '../diagnostics';
import { KubeObject } from '../model/kube';
import type { Gate } from '../model/plan';
import { ParsedDocument } from '../yaml/parse';
import {
  antiAffinityOf,
  isAppsV1,
  scaledToZero,
  serviceOrigins,
  unsupportedWorkload,
  withPause,
  wrongDeploymentApi,
} from './reader-common';
import { blueGreenRollingUpdate, readBlueGreen } from './argo-bluegreen';
import { rollingUpdateProblems } from './argo-rolling-update';
import { combinedGate, holdForUnrunStep } from './argo-held-steps';
import { NormalizeResult, providersFromArgo } from './providers';
import {
  MirrorRoute,
  NamedRoute,
  PauseSpec,
  ReplicaAmount,
  RouteMatch,
  RolloutSpec,
  StepSpec,
  StringMatchType,
  ValueMatch,
} from '../model/rollout';
import { arr, num, obj, str, stringMap } from '../model/values';

type Path = (string | number)[];

/** The state Argo accumulates while walking its steps; each state-changing entry snapshots it as one step. */
interface WalkState {
  weight: number;
  scale?: ReplicaAmount;
  /** Where a scale of no pods was set, until a step that sends the canary traffic is warned of it. */
  zeroScaleAt?: Path;
  headerRoutes: Map<string, NamedRoute>;
  mirrorRoutes: Map<string, MirrorRoute>;
}

/** Argo Rollout (canary strategy) -> RolloutSpec. */
export function normalizeArgo(doc: ParsedDocument, inputs: ProviderInputs): NormalizeResult {
  const root = obj(doc.value);
  const meta = obj(root.metadata);
  const spec = obj(root.spec);
  const canary = obj(obj(spec.strategy).canary);
  const routing = obj(canary.trafficRouting);
  const diagnostics: Diagnostic[] = rollingUpdateProblems(doc, spec);
  const name = str(meta.name) ?? '';
  const replicas = num(spec.replicas) ?? 1;
  const managedRoutes = arr(routing.managedRoutes).map((r) => str(obj(r).name) ?? '');
  const weightTotal = num(routing.maxTrafficWeight) ?? 100;
  const { steps, entryOfStep } = walkSteps(
    doc,
    arr(canary.steps),
    { managed: managedRoutes, weightTotal, routed: canary.trafficRouting !== undefined },
    diagnostics,
  );
  const backgroundAnalysis = background(doc, canary, entryOfStep, diagnostics);
  const blueGreen = obj(spec.strategy).blueGreen !== undefined ? readBlueGreen(doc, replicas, diagnostics) : undefined;
  if ((obj(spec.strategy).canary === undefined) === (blueGreen === undefined))
    diagnostics.push(
      error(doc, ['spec', 'strategy'], 'strategy needs exactly one of canary and blueGreen; keep the one you mean'),
    );
  const providers =
    canary.trafficRouting !== undefined
      ? providersFromArgo(doc, routing, ['spec', 'strategy', 'canary', 'trafficRouting'], inputs, diagnostics)
      : [];
  const pingPong = pingPongOf(doc, canary, diagnostics);
  const sides = pingPong && !pingPong.alongside;
  const stable = sides ? pingPong.ping : str(canary.stableService);
  const canarySvc = sides ? pingPong.pong : str(canary.canaryService);
  if (num(spec.replicas) === 0)
    diagnostics.push({
      ...doc.locate(['spec', 'replicas']),
      message: scaledToZero(''),
      severity: 'warning',
    });
  // One Service for both would send each request to old and new pods by their count, whatever the step says.
  if (!sides && stable !== undefined && stable === canarySvc)
    diagnostics.push(
      error(
        doc,
        ['spec', 'strategy', 'canary', 'canaryService'],
        `canaryService and stableService are both "${stable}"; name a second Service for the canary (Argo refuses this too)`,
      ),
    );
  const rollout: RolloutSpec = {
    format: 'argo',
    name,
    ...(str(meta.namespace) ? { namespace: str(meta.namespace) } : {}),
    origin: doc.origin,
    workload: argoWorkload(doc, root, replicas, diagnostics),
    // Without traffic routing Argo approximates the weight with pod counts, i.e. replaces stable pods.
    style: providers.length > 0 ? 'canary' : 'partition',
    steps,
    traffic: {
      ...(stable ? { stableService: stable } : {}),
      ...(stable || canarySvc ? { canaryService: canarySvc ?? `${stable}-canary` } : {}),
      ...(sides
        ? {}
        : {
            serviceOrigins: serviceOrigins(
              doc,
              canary,
              ['spec', 'strategy', 'canary'],
              'stableService',
              'canaryService',
            ),
          }),
      generateCanaryService: canarySvc === undefined && stable !== undefined,
      weightTotal,
      providers,
      managedRoutes,
    },
    canaryPodMetadata: {
      labels: stringMap(obj(canary.canaryMetadata).labels),
      annotations: stringMap(obj(canary.canaryMetadata).annotations),
    },
    stablePodMetadata: {
      labels: stringMap(obj(canary.stableMetadata).labels),
      annotations: stringMap(obj(canary.stableMetadata).annotations),
    },
    ...(pingPong ? { pingPong } : {}),
    ...removalGatesOf(doc, canary, diagnostics),
    ...antiAffinityOf(doc, canary, ['spec', 'strategy', 'canary'], diagnostics),
    ...(canary.dynamicStableScale === true ? { dynamicStableScale: true } : {}),
    ...(num(canary.minPodsPerReplicaSet) !== undefined
      ? { minPodsPerReplicaSet: num(canary.minPodsPerReplicaSet) }
      : {}),
    ...(backgroundAnalysis ? { backgroundAnalysis } : {}),
    source: doc.value,
    ...blueGreen,
  };
  return { rollout: withPause(doc, rollout, spec.paused === true, ['spec', 'paused']), diagnostics };
}

/** `canary.pingPong`: the two Services take the stable and canary Service roles in turn. */
function pingPongOf(doc: ParsedDocument, canary: Record<string, unknown>, out: Diagnostic[]): RolloutSpec['pingPong'] {
  if (canary.pingPong === undefined) return undefined;
  const path: Path = ['spec', 'strategy', 'canary', 'pingPong'];
  const pp = obj(canary.pingPong);
  const ping = str(pp.pingService) ?? '';
  const pong = str(pp.pongService) ?? '';
  if (ping === pong)
    out.push(error(doc, [...path, 'pongService'], `pingService and pongService are both "${ping}"; name two Services`));
  for (const name of new Set([ping, pong]))
    if (name === str(canary.stableService) || name === str(canary.canaryService))
      out.push(
        error(
          doc,
          path,
          `Service "${name}" is both a ping-pong Service and stableService/canaryService; name other Services`,
        ),
      );
  if (canary.trafficRouting === undefined)
    out.push(
      error(
        doc,
        path,
        'pingPong needs trafficRouting (alb or istio) to move traffic between the ping and pong Services',
      ),
    );
  const alongside = canary.stableService !== undefined || canary.canaryService !== undefined;
  return { ping, pong, origin: doc.locate(path), alongside };
}

/**
 * Argo keeps the old pods scaleDownDelaySeconds after traffic leaves them (abortScaleDownDelaySeconds
 * after an abort; 0 there = never). rollgen removes them in a later commit that waits as long (0 =
 * for a person). Argo's validation refuses scaleDownDelaySeconds without traffic routing or with
 * dynamicStableScale; so does rollgen.
 */
function removalGatesOf(
  doc: ParsedDocument,
  canary: Record<string, unknown>,
  out: Diagnostic[],
): Pick<RolloutSpec, 'removalGates'> {
  const promotion = num(canary.scaleDownDelaySeconds);
  const abort = num(canary.abortScaleDownDelaySeconds);
  const at = (f: string): Path => ['spec', 'strategy', 'canary', f];
  if (promotion !== undefined && canary.trafficRouting === undefined)
    out.push(
      error(doc, at('scaleDownDelaySeconds'), 'scaleDownDelaySeconds needs trafficRouting (as Argo); remove it'),
    );
  if (promotion !== undefined && canary.dynamicStableScale === true)
    out.push(
      error(
        doc,
        at('dynamicStableScale'),
        'dynamicStableScale cannot be used with scaleDownDelaySeconds (as Argo); keep one',
      ),
    );
  if (canary.trafficRouting === undefined || (promotion === undefined && abort === undefined)) return {};
  const timed = (s: number | undefined): Gate => (s ? { kind: 'timed', seconds: s } : { kind: 'automatic' });
  return {
    removalGates: { promotion: timed(promotion), abort: abort === 0 ? { kind: 'manual' } : timed(abort) },
  };
}

function argoWorkload(
  doc: ParsedDocument,
  root: Record<string, unknown>,
  replicas: number,
  out: Diagnostic[],
): RolloutSpec['workload'] {
  const spec = obj(root.spec);
  const ref = obj(spec.workloadRef);
  if (spec.workloadRef !== undefined) {
    if (str(ref.kind) !== 'Deployment')
      out.push(error(doc, ['spec', 'workloadRef', 'kind'], unsupportedWorkload(str(ref.kind))));
    else if (!isAppsV1(ref.apiVersion))
      out.push(error(doc, ['spec', 'workloadRef', 'apiVersion'], wrongDeploymentApi(ref.apiVersion)));
    return {
      kind: 'Deployment',
      name: str(ref.name) ?? '',
      origin: doc.locate(['spec', 'workloadRef', 'name']),
      replicasOverride: replicas,
      ...(spec.replicas === undefined ? { replicasDefaulted: true } : {}),
      deploymentSpec: deploymentFields(spec),
    };
  }
  const meta = obj(root.metadata);
  const deployment: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: str(meta.name) ?? '',
      ...(str(meta.namespace) ? { namespace: str(meta.namespace) } : {}),
      ...(meta.labels ? { labels: stringMap(meta.labels) } : {}),
    },
    spec: { replicas, selector: spec.selector, template: spec.template, ...deploymentFields(spec) },
  };
  return {
    kind: 'Deployment',
    name: deployment.metadata.name,
    replicasOverride: replicas,
    synthesized: deployment,
    deploymentSpec: deploymentFields(spec),
  };
}

/** Rollout fields with a Deployment twin, as written; Argo applies them to its ReplicaSets, rollgen to its Deployments. */
function deploymentFields(spec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['minReadySeconds', 'progressDeadlineSeconds', 'revisionHistoryLimit'])
    if (spec[key] !== undefined) out[key] = spec[key];
  const canary = obj(obj(spec.strategy).canary);
  const rollingUpdate: Record<string, unknown> = { ...blueGreenRollingUpdate(spec) };
  for (const key of ['maxSurge', 'maxUnavailable']) if (canary[key] !== undefined) rollingUpdate[key] = canary[key];
  if (Object.keys(rollingUpdate).length > 0) out.strategy = { type: 'RollingUpdate', rollingUpdate };
  return out;
}

interface WalkContext {
  readonly managed: readonly string[];
  readonly weightTotal: number;
  readonly routed: boolean;
}

/** The rollgen steps, and for each the index of the Argo step entry that made it (to place `startingStep`). */
function walkSteps(
  doc: ParsedDocument,
  raw: unknown[],
  wc: WalkContext,
  out: Diagnostic[],
): { steps: StepSpec[]; entryOfStep: number[] } {
  const steps: StepSpec[] = [];
  const entryOfStep: number[] = [];
  const leading: AnalysisRequest[] = [];
  const state: WalkState = { weight: 0, headerRoutes: new Map(), mirrorRoutes: new Map() };
  raw.forEach((entry, i) => {
    const e = obj(entry);
    const path: Path = ['spec', 'strategy', 'canary', 'steps', i];
    if (e.pause !== undefined) return applyPause(doc, steps, e.pause, path, out);
    if (e.analysis !== undefined) return applyAnalysis(doc, steps, leading, e.analysis, path, out);
    if (e.experiment !== undefined || e.plugin !== undefined) return holdForUnrunStep(steps);
    if (!applyAction(doc, state, e, path, wc, out)) return;
    warnTrafficWithoutPods(doc, state, out);
    steps.push(snapshot(doc.locate(path), state, wc.managed));
    entryOfStep.push(i);
  });
  if (leading.length > 0 && steps[0]) steps[0] = { ...steps[0], analyses: [...leading, ...(steps[0].analyses ?? [])] };
  return { steps, entryOfStep };
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

/** `canary.analysis`: its startingStep (an index into Argo's steps) becomes the rollgen step whose gate that entry falls in. */
function background(
  doc: ParsedDocument,
  canary: Record<string, unknown>,
  entryOfStep: readonly number[],
  out: Diagnostic[],
): RolloutSpec['backgroundAnalysis'] {
  if (canary.analysis === undefined) return undefined;
  const path: Path = ['spec', 'strategy', 'canary', 'analysis'];
  const request = readRequest(canary.analysis, doc.locate, path);
  const starting = num(obj(canary.analysis).startingStep) ?? 0;
  if (starting >= arr(canary.steps).length && starting > 0)
    out.push(
      error(
        doc,
        [...path, 'startingStep'],
        `startingStep ${starting} is past the last step (${arr(canary.steps).length} steps)`,
      ),
    );
  const covering = entryOfStep.filter((e) => e <= starting).length;
  return { request, startingStep: Math.max(1, covering) };
}

/** A pause gates the step before it; a leading pause has no step to gate (step 1 waits for a person anyway). */
function applyPause(doc: ParsedDocument, steps: StepSpec[], pause: unknown, path: Path, out: Diagnostic[]): void {
  const previous = steps[steps.length - 1];
  if (!previous) {
    out.push({
      ...doc.locate(path),
      message:
        'a pause before any setWeight/setCanaryScale/setHeaderRoute/setMirrorRoute gates nothing; step 1 already waits for approval',
      severity: 'warning',
    });
    return;
  }
  const seconds = parseDuration(obj(pause).duration);
  const gate: PauseSpec = seconds === undefined ? { kind: 'manual' } : { kind: 'timed', seconds };
  steps[steps.length - 1] = { ...previous, pause: combinedGate(previous.pause, gate) };
}

function applyAction(
  doc: ParsedDocument,
  state: WalkState,
  e: Record<string, unknown>,
  path: Path,
  wc: WalkContext,
  out: Diagnostic[],
): boolean {
  if (num(e.setWeight) !== undefined) state.weight = num(e.setWeight)!;
  else if (e.setCanaryScale !== undefined) {
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
  } else if (e.setHeaderRoute !== undefined) setRoute(state.headerRoutes, obj(e.setHeaderRoute), headerRouteMatches);
  else if (e.setMirrorRoute !== undefined) setMirror(state.mirrorRoutes, obj(e.setMirrorRoute));
  else {
    if (Object.keys(e).length === 0)
      out.push({ ...doc.locate(path), message: 'an empty step does nothing; remove it', severity: 'warning' });
    return false;
  }
  return true;
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

function snapshot(origin: StepSpec['origin'], s: WalkState, managed: readonly string[]): StepSpec {
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
