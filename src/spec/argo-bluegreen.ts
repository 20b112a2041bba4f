import { readRequest } from '../model/analysis-request';
import { Diagnostic } from '../diagnostics';
import { ParsedDocument } from '../yaml/parse';
import { PauseSpec, RolloutSpec, StepSpec } from '../model/rollout';
import { num, obj, str, stringMap } from '../model/values';
import { antiAffinityOf, serviceOrigins } from './reader-common';

/**
 * Argo `strategy.blueGreen` as two rollgen steps over the canary machinery (README "Blue-green"):
 *
 *   step 1, preview: the new version runs beside the old in `<deployment>-canary`
 *     (previewReplicaCount pods), the preview Service selects it, the active Service keeps the old.
 *     Gate: prePromotionAnalysis, then autoPromotionEnabled: false (a person merges the switch) or
 *     autoPromotionSeconds (timed), else automatic, as Argo's reconcileBlueGreenPause.
 *   step 2, switch: the new version at full size; the active Service's selector moves to it in one
 *     commit. Gate: postPromotionAnalysis and scaleDownDelaySeconds (default 30 s, as Argo).
 *   promote (scale down old): the old version's pods are replaced in your Deployment, which serves
 *     nothing now; clean-up: the active Service selects your Deployment again, the preview one goes.
 *
 * Abort, at either step, sends the active Service back to the old version and removes the preview.
 */

type Path = (string | number)[];

const BLUE_GREEN: Path = ['spec', 'strategy', 'blueGreen'];
/** Argo's DefaultScaleDownDelaySeconds. */
const DEFAULT_SCALE_DOWN_DELAY = 30;

/** The parts of a RolloutSpec that blue-green decides; argo.ts fills in the rest. */
export type BlueGreenParts = Pick<
  RolloutSpec,
  | 'style'
  | 'steps'
  | 'traffic'
  | 'canaryPodMetadata'
  | 'stablePodMetadata'
  | 'antiAffinity'
  | 'blueGreen'
  | 'abortDelaySeconds'
>;

export function readBlueGreen(doc: ParsedDocument, replicas: number, out: Diagnostic[]): BlueGreenParts {
  const bg = obj(obj(obj(obj(doc.value).spec).strategy).blueGreen);
  const active = str(bg.activeService);
  const preview = str(bg.previewService);
  if (!active) out.push(error(doc, BLUE_GREEN, 'blueGreen needs activeService: the Service that serves the app'));
  if (preview && preview === active)
    out.push(error(doc, [...BLUE_GREEN, 'previewService'], 'previewService must differ from activeService'));
  const previewCount = num(bg.previewReplicaCount);
  if (previewCount !== undefined && previewCount > replicas)
    out.push({
      ...doc.locate([...BLUE_GREEN, 'previewReplicaCount']),
      message: `previewReplicaCount ${previewCount} is more than replicas (${replicas}); the preview runs ${replicas} pods`,
      severity: 'warning',
    });
  out.push(...ignoredAutoPromotionSeconds(doc, bg));
  const stepOrigin = doc.locate(BLUE_GREEN);
  const previewStep: StepSpec = {
    ...emptyStep(stepOrigin, { count: Math.min(previewCount ?? replicas, replicas) }),
    name: 'preview',
    pause: promotionPause(bg),
    ...analyses(doc, bg.prePromotionAnalysis, 'prePromotionAnalysis'),
  };
  const switchStep: StepSpec = {
    ...emptyStep(stepOrigin, { count: replicas }),
    name: 'switch',
    switched: true,
    pause: scaleDownPause(bg),
    ...analyses(doc, bg.postPromotionAnalysis, 'postPromotionAnalysis'),
  };
  return {
    style: 'canary',
    steps: [previewStep, switchStep],
    traffic: {
      ...(active ? { stableService: active } : {}),
      ...(preview ? { canaryService: preview } : {}),
      serviceOrigins: serviceOrigins(doc, bg, BLUE_GREEN, 'activeService', 'previewService'),
      generateCanaryService: false,
      weightTotal: 100,
      providers: [],
      managedRoutes: [],
    },
    canaryPodMetadata: podMetadata(bg.previewMetadata),
    stablePodMetadata: podMetadata(bg.activeMetadata),
    ...antiAffinityOf(doc, bg, BLUE_GREEN, out),
    blueGreen: true,
    ...abortDelay(doc, bg, out),
  };
}

/** Argo's default abortScaleDownDelaySeconds is 30; 0 (Argo: keep the preview until the next update) removes it at once. */
function abortDelay(
  doc: ParsedDocument,
  bg: Record<string, unknown>,
  out: Diagnostic[],
): { abortDelaySeconds?: number } {
  const seconds = num(bg.abortScaleDownDelaySeconds) ?? DEFAULT_SCALE_DOWN_DELAY;
  if (seconds === 0)
    out.push({
      ...doc.locate([...BLUE_GREEN, 'abortScaleDownDelaySeconds']),
      message:
        'abortScaleDownDelaySeconds 0 keeps the preview pods in Argo until the next update; rollgen removes them in the abort commit',
      severity: 'warning',
    });
  return seconds > 0 ? { abortDelaySeconds: seconds } : {};
}

function emptyStep(origin: StepSpec['origin'], count: { count: number }): StepSpec {
  return { origin, replicas: count, matches: [], headerRoutes: [], mirrorRoutes: [], pause: { kind: 'none' } };
}

/** Argo: autoPromotionEnabled false waits for `promote` whatever autoPromotionSeconds says; otherwise the seconds, or none. */
function promotionPause(bg: Record<string, unknown>): PauseSpec {
  if (bg.autoPromotionEnabled === false) return { kind: 'manual' };
  const seconds = num(bg.autoPromotionSeconds) ?? 0;
  return seconds > 0 ? { kind: 'timed', seconds } : { kind: 'none' };
}

/** Argo's CompletedBlueGreenPause reads autoPromotionSeconds only while auto-promotion is enabled: a timed gate written and not had. */
function ignoredAutoPromotionSeconds(doc: ParsedDocument, bg: Record<string, unknown>): Diagnostic[] {
  const seconds = num(bg.autoPromotionSeconds);
  if (bg.autoPromotionEnabled !== false || seconds === undefined || seconds <= 0) return [];
  return [
    {
      ...doc.locate([...BLUE_GREEN, 'autoPromotionSeconds']),
      message: `autoPromotionSeconds ${seconds} is ignored because autoPromotionEnabled is false (as Argo): the switch after the preview waits for a person to merge it. Remove autoPromotionSeconds, or remove autoPromotionEnabled for a timed gate of ${seconds} s`,
      severity: 'warning',
    },
  ];
}

function scaleDownPause(bg: Record<string, unknown>): PauseSpec {
  const seconds = num(bg.scaleDownDelaySeconds) ?? DEFAULT_SCALE_DOWN_DELAY;
  return seconds > 0 ? { kind: 'timed', seconds } : { kind: 'none' };
}

function analyses(doc: ParsedDocument, value: unknown, key: string): Pick<StepSpec, 'analyses'> {
  if (value === undefined) return {};
  return { analyses: [readRequest(value, doc.locate, [...BLUE_GREEN, key])] };
}

function podMetadata(v: unknown): RolloutSpec['canaryPodMetadata'] {
  return { labels: stringMap(obj(v).labels), annotations: stringMap(obj(v).annotations) };
}

/** Rollout fields the rendered Deployments carry for blue-green: maxUnavailable bounds their rolling updates. */
export function blueGreenRollingUpdate(spec: Record<string, unknown>): Record<string, unknown> | undefined {
  const bg = obj(obj(spec.strategy).blueGreen);
  return bg.maxUnavailable !== undefined ? { maxUnavailable: bg.maxUnavailable } : undefined;
}

function error(doc: ParsedDocument, path: Path, message: string): Diagnostic {
  return { ...doc.locate(path), message, severity: 'error' };
}
