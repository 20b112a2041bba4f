import type { GeneratorContext } from '../../src/contract/generator';

/** Argo `trafficRouting.smi`, as written. */
export interface SmiOptions {
  /** The Service clients call; the TrafficSplit's `spec.service`. Default: the stable Service. */
  readonly rootService?: string;
  /** Default: the rollout's name (as Argo names the TrafficSplit it creates). */
  readonly trafficSplitName?: string;
}

export type Ctx = GeneratorContext<SmiOptions>;

export { default as optionsSchema } from './options.schema.json';

export const SMI_GROUP = 'split.smi-spec.io';
/** Argo's default (`--traffic-split-api-version`); a TrafficSplit written in the app's manifests picks another. */
export const DEFAULT_API_VERSION = `${SMI_GROUP}/v1alpha1`;
export const SUPPORTED_VERSIONS = ['v1alpha1', 'v1alpha2', 'v1alpha3'];

export const splitName = (ctx: Ctx): string => ctx.options.trafficSplitName ?? ctx.rollout.name;
export const rootService = (ctx: Ctx): string => ctx.options.rootService ?? ctx.stableService;
