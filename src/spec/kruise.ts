import type { ProviderInputs } from '../contract/inputs';
import { Diagnostic } from '../diagnostics';
import { suggestName } from '../suggest';
import { ParsedDocument } from '../yaml/parse';
import { isAppsV1, unsupportedWorkload, withPause, wrongDeploymentApi } from './reader-common';
import { NormalizeResult, providerFromKruiseRouting } from './providers';
import { PauseSpec, RolloutSpec, StepSpec, TrafficSpec } from '../model/rollout';
import { headerModifier, kruiseMatch, parseAmount, parsePercent } from './kruise-values';
import { arr, num, obj, str, stringMap } from '../model/values';

const ROLLING_STYLE = 'rollouts.kruise.io/rolling-style';
const TRAFFIC_ROUTING = 'rollouts.kruise.io/trafficrouting';

/** Kruise Rollout (v1alpha1 or v1beta1) -> RolloutSpec. The schema has already checked shapes. */
export function normalizeKruise(doc: ParsedDocument, inputs: ProviderInputs): NormalizeResult {
  const root = obj(doc.value);
  const v1beta1 = str(root.apiVersion) === 'rollouts.kruise.io/v1beta1';
  const meta = obj(root.metadata);
  const spec = obj(root.spec);
  const diagnostics: Diagnostic[] = [];
  // v1beta1 blueGreen has the canary's steps and trafficRoutings over two full workloads: canary style.
  const blueGreen = v1beta1 && obj(spec.strategy).blueGreen !== undefined;
  const strategyKey = blueGreen ? 'blueGreen' : 'canary';
  if (v1beta1 && blueGreen === (obj(spec.strategy).canary !== undefined))
    diagnostics.push(
      error(doc, ['spec', 'strategy'], 'strategy needs exactly one of canary and blueGreen; keep the one you mean'),
    );
  const canary = obj(obj(spec.strategy)[strategyKey]);
  const annotations = stringMap(meta.annotations);
  diagnostics.push(...unreadAnnotations(doc, annotations));
  const ref = obj(v1beta1 ? spec.workloadRef : obj(spec.objectRef).workloadRef);
  const refPath = v1beta1 ? ['spec', 'workloadRef'] : ['spec', 'objectRef', 'workloadRef'];
  if (str(ref.kind) !== 'Deployment') {
    diagnostics.push(error(doc, [...refPath, 'kind'], unsupportedWorkload(str(ref.kind))));
  } else if (!isAppsV1(ref.apiVersion))
    diagnostics.push(error(doc, [...refPath, 'apiVersion'], wrongDeploymentApi(ref.apiVersion)));
  const stepsPath = ['spec', 'strategy', strategyKey, 'steps'];
  const steps = arr(canary.steps).map((s, i) => kruiseStep(doc, s, [...stepsPath, i], v1beta1));
  diagnostics.push(...fractionalTraffic(doc, arr(canary.steps), stepsPath));
  // Kruise copies only a non-empty annotation.
  const routingRef = annotations[TRAFFIC_ROUTING] || str(canary.trafficRoutingRef) || undefined;
  const traffic = kruiseTraffic(doc, strategyKey, canary, routingRef !== undefined, diagnostics, inputs);
  if (blueGreen) diagnostics.push(...blueGreenLastStep(steps, traffic.providers.length > 0));
  if (blueGreen && canary.disableGenerateCanaryService === true)
    diagnostics.push({
      ...doc.locate(['spec', 'strategy', strategyKey, 'disableGenerateCanaryService']),
      message:
        "blue-green with disableGenerateCanaryService: Kruise leaves the Service selecting both versions' pods, so the new version gets a share by pod count at every step (traffic 0% included) unless your routes pick pods by label (an Istio DestinationRule subset); remove it to route by traffic",
      severity: 'warning',
    });
  if (arr(canary.trafficRoutings).length === 0 && !routingRef)
    diagnostics.push(...unroutedTraffic(doc, arr(canary.steps), stepsPath));
  const patch = obj(canary.patchPodTemplateMetadata);
  const rollout: RolloutSpec = {
    format: v1beta1 ? 'kruise-v1beta1' : 'kruise-v1alpha1',
    name: str(meta.name) ?? '',
    ...(str(meta.namespace) ? { namespace: str(meta.namespace) } : {}),
    origin: doc.origin,
    workload: { kind: 'Deployment', name: str(ref.name) ?? '', origin: doc.locate([...refPath, 'name']) },
    style: blueGreen ? 'canary' : kruiseStyle(v1beta1, canary, annotations[ROLLING_STYLE], doc, diagnostics),
    steps: matchesOverTraffic(steps, traffic.providers, diagnostics),
    traffic,
    canaryPodMetadata: { labels: stringMap(patch.labels), annotations: stringMap(patch.annotations) },
    stablePodMetadata: { labels: {}, annotations: {} },
    ...(routingRef
      ? {
          trafficRoutingRef: routingRef,
          trafficRoutingRefOrigin: doc.locate(
            annotations[TRAFFIC_ROUTING]
              ? ['metadata', 'annotations', TRAFFIC_ROUTING]
              : ['spec', 'strategy', strategyKey, 'trafficRoutingRef'],
          ),
        }
      : {}),
    // Blue-green waits between its own steps; its grace period stays a warning.
    ...(blueGreen ? {} : gracePeriodGates(canary)),
    ...(blueGreen ? { blueGreen: true } : {}),
  };
  if (rollout.style === 'partition') diagnostics.push(...partitionLimit(rollout.steps));
  const paused = obj(spec.strategy).paused === true;
  return { rollout: withPause(doc, rollout, paused, ['spec', 'strategy', 'paused']), diagnostics };
}

/** Kruise gracePeriodSeconds: it waits that long after a traffic change before the workloads change, e.g. removing the canary. */
function gracePeriodGates(canary: Record<string, unknown>): Pick<RolloutSpec, 'removalGates'> {
  const seconds = num(obj(arr(canary.trafficRoutings)[0]).gracePeriodSeconds);
  if (!seconds) return {};
  const gate = { kind: 'timed' as const, seconds };
  return { removalGates: { promotion: gate, abort: gate } };
}

export function kruiseDisabled(doc: ParsedDocument): boolean {
  return obj(obj(doc.value).spec).disabled === true;
}

function kruiseStyle(
  v1beta1: boolean,
  canary: Record<string, unknown>,
  annotation: string | undefined,
  doc: ParsedDocument,
  out: Diagnostic[],
): 'canary' | 'partition' {
  if (v1beta1) return canary.enableExtraWorkloadForCanary === true ? 'canary' : 'partition';
  const style = (annotation ?? 'canary').toLowerCase();
  if (style !== 'canary' && style !== 'partition') {
    out.push(
      error(
        doc,
        ['metadata', 'annotations', ROLLING_STYLE],
        `${ROLLING_STYLE} must be "canary" or "partition", not "${annotation}"`,
      ),
    );
  }
  return style === 'partition' ? 'partition' : 'canary';
}

/** Kruise reads `traffic` as a whole percent and refuses "50.5%"; rounding it would route a share nobody wrote. */
function fractionalTraffic(
  doc: ParsedDocument,
  steps: readonly unknown[],
  stepsPath: (string | number)[],
): Diagnostic[] {
  return steps.flatMap((s, i) => {
    const traffic = obj(s).traffic;
    if (typeof traffic !== 'string' || !/^\s*\d+\.\d+%\s*$/.test(traffic)) return [];
    return [
      error(
        doc,
        [...stepsPath, i, 'traffic'],
        `step ${i + 1}: traffic ${traffic.trim()} is not a whole percent; Kruise refuses it: write ${Math.floor(parseFloat(traffic))}% or ${Math.ceil(parseFloat(traffic))}%`,
      ),
    ];
  });
}

export function kruiseStep(doc: ParsedDocument, raw: unknown, path: (string | number)[], v1beta1: boolean): StepSpec {
  const s = obj(raw);
  const weight = v1beta1 ? parsePercent(s.traffic) : num(s.weight);
  const replicas = parseAmount(s.replicas) ?? (weight !== undefined ? { percent: weight } : undefined);
  const modifier = headerModifier(s.requestHeaderModifier);
  return {
    origin: doc.locate(path),
    ...(replicas ? { replicas } : {}),
    ...(weight !== undefined ? { weight } : {}),
    matches: arr(s.matches).map(kruiseMatch),
    headerRoutes: [],
    mirrorRoutes: [],
    ...(modifier ? { requestHeaderModifier: modifier } : {}),
    pause: kruisePause(s.pause),
  };
}

/** Kruise: pause {} waits for approval, a duration waits that long; an absent pause is "none" so rollgen.yaml can choose its gate. */
function kruisePause(v: unknown): PauseSpec {
  const seconds = num(obj(v).duration);
  if (v === undefined) return { kind: 'none' };
  return seconds === undefined ? { kind: 'manual' } : { kind: 'timed', seconds };
}

function kruiseTraffic(
  doc: ParsedDocument,
  strategyKey: string,
  canary: Record<string, unknown>,
  sharedRouting: boolean,
  out: Diagnostic[],
  inputs: ProviderInputs,
): TrafficSpec {
  const routings = arr(canary.trafficRoutings);
  const first = obj(routings[0]);
  const service = str(first.service);
  // A shared TrafficRouting routes by pod labels on the stable Service's host (Kruise creates no canary Service then).
  const noCanaryService = canary.disableGenerateCanaryService === true || sharedRouting;
  const base = ['spec', 'strategy', strategyKey, 'trafficRoutings', 0];
  const providers = routings.length > 0 ? providerFromKruiseRouting(doc, first, base, out, inputs) : [];
  return {
    ...(service ? { stableService: service, canaryService: noCanaryService ? service : `${service}-canary` } : {}),
    serviceOrigins: {
      ...(service ? { stable: doc.locate([...base, 'service']) } : {}),
      strategy: doc.locate(routings.length > 0 ? base : ['spec', 'strategy', strategyKey]),
    },
    generateCanaryService: service !== undefined && !noCanaryService,
    weightTotal: 100,
    providers,
    managedRoutes: [],
  };
}

/**
 * Kruise blue-green routes all traffic to the new version before it scales down the old one;
 * rollgen's promote keeps the last step's traffic while your Deployment takes the new version, so a
 * last step below 100% is said where it is written.
 */
function blueGreenLastStep(steps: readonly StepSpec[], routed: boolean): Diagnostic[] {
  const last = steps[steps.length - 1];
  if (!last || !routed || last.weight === 100) return [];
  return [
    {
      ...last.origin,
      message: `the last blue-green step sends ${last.weight ?? 0}% of traffic to the new version; Kruise routes all of it there before scaling down the old version, rollgen's promote keeps ${last.weight ?? 0}% while your Deployment takes the new version; end with traffic: 100%`,
      severity: 'warning',
    },
  ];
}

/**
 * A step's traffic needs trafficRoutings: without them Kruise patches no Service, so the Service
 * selects both versions' pods and the new version's share follows its replicas (plan: "by pods").
 * A step without replicas takes its pods from the traffic, which is then honoured by pod count.
 */
function unroutedTraffic(doc: ParsedDocument, raw: readonly unknown[], stepsPath: (string | number)[]): Diagnostic[] {
  return raw.flatMap((s, i) => {
    const key = obj(s).traffic !== undefined ? 'traffic' : 'weight';
    if (obj(s)[key] === undefined || obj(s).replicas === undefined) return [];
    return [
      {
        ...doc.locate([...stepsPath, i, key]),
        message: `step ${i + 1}: ${key} ${String(obj(s)[key])} routes nothing without trafficRoutings: the Service selects both versions' pods, so the new version's share follows its replicas (as Kruise does); add trafficRoutings, or remove ${key}`,
        severity: 'warning' as const,
      },
    ];
  });
}

/** Providers on which Kruise ignores a step's traffic when it has matches ("match mode"). */
const MATCH_MODE_PROVIDERS = ['istio', 'gateway-api'];

/**
 * Kruise on Istio and Gateway API: "matches take precedence over traffic", so a step with matches
 * sends only matching requests to the canary (the ingress providers do both). rollgen reads the
 * spec the same way and says so; the step's replicas are unchanged.
 */
export function matchesOverTraffic(
  steps: readonly StepSpec[],
  providers: readonly { readonly provider: string }[],
  out: Diagnostic[],
): StepSpec[] {
  if (!providers.some((p) => MATCH_MODE_PROVIDERS.includes(p.provider))) return [...steps];
  return steps.map((s) => {
    if (s.matches.length === 0 || s.weight === undefined || s.weight === 0) return s;
    out.push({
      ...s.origin,
      message: `traffic ${s.weight}% is ignored because the step has matches: Kruise sends only matching requests to the canary on Istio and Gateway API; remove traffic or the matches`,
      severity: 'warning',
    });
    const { weight: _ignored, ...rest } = s;
    return rest;
  });
}

function error(doc: ParsedDocument, path: (string | number)[], message: string): Diagnostic {
  const o = doc.locate(path);
  return { file: o.file, line: o.line, col: o.col, message, severity: 'error' };
}

/** Kruise keys a Rollout may carry that change nothing rollgen renders: written by the controller, or for other workloads. */
const KRUISE_INERT = new Set(['rollouts.kruise.io/hash', 'rollouts.kruise.io/rollback-in-batch']);

/**
 * A `rollouts.kruise.io/` annotation neither Kruise nor rollgen reads on a Rollout is most often a
 * typo of one they do (`rolling-stlye`): ignored, the rollout would run another style or route.
 */
function unreadAnnotations(doc: ParsedDocument, annotations: Record<string, string>): Diagnostic[] {
  const read = [ROLLING_STYLE, TRAFFIC_ROUTING];
  return Object.keys(annotations)
    .filter((k) => k.startsWith('rollouts.kruise.io/') && !read.includes(k) && !KRUISE_INERT.has(k))
    .map((k) => {
      const near = suggestName(k, read);
      return {
        ...doc.locate(['metadata', 'annotations', k]),
        message: `annotation ${k} is not one Kruise reads on a Rollout, so it changes nothing${near ? `; did you mean ${near}?` : ''}`,
        severity: 'warning' as const,
      };
    });
}

/** Kruise's --partition-percent-limit, by default. */
const PARTITION_LIMIT = 50;

/**
 * Kruise's webhook refuses a partition-style step that routes traffic (a weight or matches) while
 * more than 50% of the replicas are canary (the limit is a flag of its controller): the stable
 * pods it replaced would have to take the traffic back on a rollback. rollgen renders it, warned.
 */
function partitionLimit(steps: readonly StepSpec[]): Diagnostic[] {
  return steps.flatMap((s, i) => {
    const routes = s.weight !== undefined || s.matches.length > 0;
    const percent = s.replicas && 'percent' in s.replicas ? s.replicas.percent : undefined;
    if (!routes || percent === undefined || percent <= PARTITION_LIMIT) return [];
    return [
      {
        ...s.origin,
        message: `step ${i + 1}: partition style with ${percent}% canary replicas and traffic: Kruise refuses a step that routes traffic above ${PARTITION_LIMIT}% of replicas (--partition-percent-limit); rollgen renders it. Keep traffic steps at ${PARTITION_LIMIT}% or below and end with replicas: 100% without traffic`,
        severity: 'warning' as const,
      },
    ];
  });
}
