/**
 * Options of the ingress-nginx generator, as the Kruise (`classType: nginx`) and Argo
 * (`trafficRouting.nginx`) input adapters (inputs.ts) hand them over. The core validates them against
 * `optionsSchema` before any generator function is called.
 */
export interface NginxOptions {
  /** Stable Ingress names (Kruise `trafficRoutings[0].ingress.name`, Argo `stableIngress` / `stableIngresses`). */
  readonly ingresses: readonly string[];
  /** Annotation domain, default `nginx.ingress.kubernetes.io` (Argo `annotationPrefix`). */
  readonly annotationPrefix: string;
  /** Argo `additionalIngressAnnotations`: keys without a domain get `<annotationPrefix>/`. */
  readonly additionalIngressAnnotations: Readonly<Record<string, string>>;
  /** Argo `canaryIngressAnnotations`: full keys, applied after the additional ones. */
  readonly canaryIngressAnnotations: Readonly<Record<string, string>>;
}

export const DEFAULT_ANNOTATION_PREFIX = 'nginx.ingress.kubernetes.io';

/** The schema lives in JSON so scripts/compile-schemas.mjs can precompile it (no ajv compile at start-up). */
export { default as optionsSchema } from './options.schema.json';

export function annotationKey(prefix: string, name: string): string {
  return `${prefix}/${name}`;
}

/** Keys of canary annotations (`<prefix>/canary`, `<prefix>/canary-weight`, ...). */
export function isCanaryKey(prefix: string, key: string): boolean {
  return key.startsWith(annotationKey(prefix, 'canary'));
}

/** Step-owned keys: rollgen writes them per step, so user annotations cannot set them. */
export function stepOwnedKeys(prefix: string): readonly string[] {
  return ['canary', 'canary-weight', 'canary-weight-total'].map((k) => annotationKey(prefix, k));
}

/**
 * The user's fixed annotations for the canary Ingress: additional ones (a key without a
 * `domain/` part gets the prefix) then the canary ones, which win on collision.
 */
export function userAnnotations(options: NginxOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.additionalIngressAnnotations)) {
    out[key.includes('/') ? key : annotationKey(options.annotationPrefix, key)] = value;
  }
  return { ...out, ...options.canaryIngressAnnotations };
}
