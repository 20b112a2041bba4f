import type { KubeObject } from '../../src/model/kube';
import { hasCanaryRoutes, TrafficState } from '../../src/model/plan';
import type { HeaderModifier, RouteMatch, StringMatchType, ValueMatch } from '../../src/model/rollout';

/**
 * What a route template sees (documented in README.md). A logic-less template cannot compare
 * strings or serialize objects, so every decision it may need is precomputed here: booleans per
 * match type, and the original's metadata and spec as JSON text (JSON is YAML flow style).
 */
export interface TemplateData {
  readonly original: KubeObject;
  readonly originalJson: {
    readonly metadata: string;
    readonly labels: string;
    readonly annotations: string;
    readonly spec: string;
  };
  readonly step: StepData;
}

export interface StepData {
  /** true when the state routes anything to the canary; templates only run for such states. */
  readonly canary: boolean;
  readonly weight: number;
  readonly weightTotal: number;
  readonly stableWeight: number;
  readonly hasWeight: boolean;
  readonly matches: readonly MatchData[];
  readonly hasMatches: boolean;
  readonly requestHeaderModifier: HeaderModifier;
  readonly hasRequestHeaderModifier: boolean;
  readonly canaryService: string;
  readonly stableService: string;
  /** Kruise TrafficRouting: canary and stable are one Service, so routes must pick canary pods another way (a subset). */
  readonly sharedService: boolean;
}

export interface ValueMatchData extends ValueMatch, MatchTypeFlags {}

export interface MatchTypeFlags {
  readonly exact: boolean;
  readonly prefix: boolean;
  readonly regex: boolean;
}

export interface MatchData {
  readonly headers: readonly ValueMatchData[];
  readonly queryParams: readonly ValueMatchData[];
  readonly cookies: readonly ValueMatchData[];
  readonly path?: { readonly type: string; readonly value: string } & MatchTypeFlags;
  readonly method?: { readonly type: string; readonly value: string } & MatchTypeFlags;
}

const NO_MODIFIER: HeaderModifier = { set: [], add: [], remove: [] };

/** Template data for one object in one traffic state. Pure; the original is never mutated (templates only read). */
export function buildTemplateData(
  original: KubeObject,
  traffic: TrafficState,
  stableService: string,
  canaryService: string,
): TemplateData {
  const weight = traffic.weight;
  return {
    original,
    originalJson: {
      metadata: JSON.stringify(original.metadata),
      labels: JSON.stringify(original.metadata.labels ?? {}),
      annotations: JSON.stringify(original.metadata.annotations ?? {}),
      spec: JSON.stringify(original.spec ?? {}),
    },
    step: {
      canary: hasCanaryRoutes(traffic),
      weight,
      weightTotal: traffic.weightTotal,
      stableWeight: traffic.weightTotal - weight,
      hasWeight: weight > 0,
      matches: traffic.matches.map(matchData),
      hasMatches: traffic.matches.length > 0,
      requestHeaderModifier: traffic.requestHeaderModifier ?? NO_MODIFIER,
      hasRequestHeaderModifier: traffic.requestHeaderModifier !== undefined,
      canaryService,
      stableService,
      sharedService: canaryService === stableService,
    },
  };
}

function matchData(m: RouteMatch): MatchData {
  return {
    headers: m.headers.map(valueData),
    queryParams: m.queryParams.map(valueData),
    cookies: m.cookies.map(valueData),
    ...(m.path ? { path: { ...m.path, ...flags(m.path.type === 'PathPrefix' ? 'Prefix' : m.path.type) } } : {}),
    ...(m.method ? { method: { ...m.method, ...flags(m.method.type) } } : {}),
  };
}

function valueData(v: ValueMatch): ValueMatchData {
  return { ...v, ...flags(v.type) };
}

function flags(type: StringMatchType): MatchTypeFlags {
  return { exact: type === 'Exact', prefix: type === 'Prefix', regex: type === 'RegularExpression' };
}
