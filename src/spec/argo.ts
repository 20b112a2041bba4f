import { readRequest } from '../model/analysis-request';
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
import { WalkContext, WalkState, snapshot, walkSteps } from './argo-steps';
import { NormalizeResult, providersFromArgo } from './providers';
import { RolloutSpec, StepSpec } from '../model/rollout';
import { arr, num, obj, str, stringMap } from '../model/values';

type Path = (string | number)[];

export { parseDuration } from './argo-steps';

/** Argo Rollout (canary strategy) -> RolloutSpec. */
export function normalizeArgo(doc: ParsedDocument, inputs: ProviderInputs): NormalizeResult {
  const root = obj(doc.value);
  const meta = obj(root.metadata);
  const spec = obj(root.spec);
  const canary = obj(obj(spec.strategy).canary);
  const routing = obj(canary.trafficRouting);
  const diagnostics: Diagnostic[] = [...rollingUpdateProblems(doc, spec), ...notificationSubscriptions(doc, meta)];
  const name = str(meta.name) ?? '';
  const replicas = num(spec.replicas) ?? 1;
  const managedRoutes = arr(routing.managedRoutes).map((r) => str(obj(r).name) ?? '');
  const weightTotal = num(routing.maxTrafficWeight) ?? 100;
  const { steps, entryOfStep, startHold } = walkSteps(
    doc,
    arr(canary.steps),
    {
      managed: managedRoutes,
      weightTotal,
      routed: canary.trafficRouting !== undefined,
      routers: Object.keys(routing).filter((k) => k !== 'managedRoutes' && k !== 'maxTrafficWeight'),
    },
    diagnostics,
  );
  if (steps.length === 0 && canary.analysis !== undefined)
    steps.push(fullCanaryStep(doc, { managed: managedRoutes, weightTotal }, entryOfStep, diagnostics));
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
  warnSharedExperimentPods(steps, stable, canarySvc, diagnostics);
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
    ...removalGatesOf(doc, canary, steps.length > 0, diagnostics),
    ...antiAffinityOf(doc, canary, ['spec', 'strategy', 'canary'], diagnostics),
    ...(canary.dynamicStableScale === true ? { dynamicStableScale: true } : {}),
    ...(num(canary.minPodsPerReplicaSet) !== undefined
      ? { minPodsPerReplicaSet: num(canary.minPodsPerReplicaSet) }
      : {}),
    ...(backgroundAnalysis ? { backgroundAnalysis } : {}),
    ...(startHold ? { startHold } : {}),
    source: doc.value,
    ...blueGreen,
  };
  return { rollout: withPause(doc, rollout, spec.paused === true, ['spec', 'paused']), diagnostics };
}

/**
 * `notifications.argoproj.io/subscribe.<trigger>.<service>` annotations ask Argo's notification
 * engine to send rollout events; with rollgen no Argo controller runs, so nothing would be sent.
 */
function notificationSubscriptions(doc: ParsedDocument, meta: Record<string, unknown>): Diagnostic[] {
  return Object.keys(obj(meta.annotations))
    .filter((key) => key.startsWith('notifications.argoproj.io/subscribe.'))
    .map((key) => ({
      ...doc.locate(['metadata', 'annotations', key]),
      message: `${key} subscribes to Argo Rollouts notifications, which no controller sends under rollgen: each step is a pull request, so subscribe there instead (watch the repository, add reviewers or pr.labels in rollgen.yaml, or notify on the check runs of its pull requests); remove the annotation`,
      severity: 'warning' as const,
    }));
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
 * after an abort; 0 there = never), 30 s each when not written. rollgen removes them in a later
 * commit that waits as long (0 = for a person). Argo's validation refuses scaleDownDelaySeconds without traffic routing or with
 * dynamicStableScale; so does rollgen.
 */
function removalGatesOf(
  doc: ParsedDocument,
  canary: Record<string, unknown>,
  hasSteps: boolean,
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
  // Without steps no canary workload runs (the stable Deployment rolls): only a written delay keeps its two commits.
  if (canary.trafficRouting === undefined || (!hasSteps && promotion === undefined && abort === undefined)) return {};
  // Argo's defaults (utils/defaults): 30 s each with traffic routing. dynamicStableScale scales the old
  // stable down at once, and drains the canary with its weight after an abort unless a delay is written.
  const dynamic = canary.dynamicStableScale === true;
  if (dynamic && abort === undefined) return {};
  const timed = (s: number): Gate => (s > 0 ? { kind: 'timed', seconds: s } : { kind: 'automatic' });
  return {
    removalGates: {
      promotion: timed(dynamic ? 0 : (promotion ?? ARGO_SCALE_DOWN_DELAY_SECONDS)),
      abort: abort === 0 ? { kind: 'manual' } : timed(abort ?? ARGO_SCALE_DOWN_DELAY_SECONDS),
    },
  };
}

/** Argo's DefaultScaleDownDelaySeconds and DefaultAbortScaleDownDelaySeconds, with traffic routing. */
const ARGO_SCALE_DOWN_DELAY_SECONDS = 30;

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

/**
 * A background analysis and no step: Argo scales the new version up at once and aborts if the
 * analysis fails before it is fully promoted. rollgen makes that one step, the canary at full size
 * with all the traffic, and the promotion waits for the analysis at its gate.
 */
function fullCanaryStep(
  doc: ParsedDocument,
  wc: Pick<WalkContext, 'managed' | 'weightTotal'>,
  entryOfStep: number[],
  out: Diagnostic[],
): StepSpec {
  const path: Path = ['spec', 'strategy', 'canary', 'analysis'];
  out.push({
    ...doc.locate(path),
    message:
      'a background analysis with no steps: Argo runs it while the new version scales up; rollgen runs step 1 with the canary at full size and all traffic, and promotes once the analysis has not failed at its gate',
    severity: 'warning',
  });
  entryOfStep.push(0);
  const state: WalkState = { weight: wc.weightTotal, headerRoutes: new Map(), mirrorRoutes: new Map() };
  return snapshot(doc.locate(path), state, wc.managed);
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

function error(doc: ParsedDocument, path: Path, message: string): Diagnostic {
  return { ...doc.locate(path), message, severity: 'error' };
}

/**
 * Without a canary Service of its own the stable Service selects both tracks (the canary is a mesh
 * subset of it), so it selects an experiment's pods too, which Argo's stable Service (by
 * pod-template-hash) never does. Said at each experiment.
 */
function warnSharedExperimentPods(
  steps: readonly StepSpec[],
  stable: string | undefined,
  canary: string | undefined,
  out: Diagnostic[],
): void {
  if (!stable || (canary && canary !== stable)) return;
  for (const s of steps)
    if (s.experiment)
      out.push({
        ...s.experiment.origin,
        message: `without a canaryService the stable Service "${stable}" selects pods of both versions, and so the experiment's pods too: they get a share of its traffic (Argo's would not); add a canaryService`,
        severity: 'warning',
      });
}
