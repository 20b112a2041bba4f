/**
 * Options of the aliyun-alb generator, as the Kruise normalizer (`classType: aliyun-alb`) hands
 * them over. The core validates them against `optionsSchema` before any generator function runs.
 */
export interface AlbOptions {
  /** Stable Ingress names (Kruise `trafficRoutings[0].ingress.name`). */
  readonly ingresses: readonly string[];
}

/** The schema lives in JSON so scripts/compile-schemas.mjs can precompile it (no ajv compile at start-up). */
export { default as optionsSchema } from './options.schema.json';
