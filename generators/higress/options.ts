/**
 * Options of the higress and mse generators as the Kruise normalizer hands them over
 * (`trafficRoutings[0].ingress.name` with `classType: higress|mse`). The core validates them
 * against the generator's options schema before any generator function runs.
 */
export interface HigressOptions {
  /** Stable Ingress names; Kruise names exactly one. */
  readonly ingresses: readonly string[];
}

/** The schema lives in JSON so scripts/compile-schemas.mjs can precompile it. */
export { default as optionsSchema } from './options.schema.json';

/**
 * A step with both matches and a weight needs a second canary Ingress: Higress makes a canary
 * Ingress either a match route or a weight split, never both (CanaryKind in Higress's annotations.go).
 */
export function weightIngressName(stableIngress: string): string {
  return `${stableIngress}-canary-weight`;
}
