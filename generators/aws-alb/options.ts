/**
 * Options of the aws-alb generator, as its Argo input adapter (`trafficRouting.alb`, see
 * inputs.ts) hands them over. The core validates them against `optionsSchema`
 * before any generator function is called.
 */
export interface AlbOptions {
  /** Argo `ingress` and `ingresses`, merged in that order. */
  readonly ingresses: readonly string[];
  /** Argo `servicePort`: the port of both target groups, written as a string in the action JSON. */
  readonly servicePort: number;
  /** Annotation domain, default `alb.ingress.kubernetes.io`. */
  readonly annotationPrefix: string;
  /** Argo `rootService`: names the action instead of the stable Service. */
  readonly rootService?: string;
  /** Argo `stickinessConfig`; `durationSeconds` is required by the schema when enabled. */
  readonly stickinessConfig?: { readonly enabled: boolean; readonly durationSeconds?: number };
}

/** The schema lives in JSON so scripts/compile-schemas.mjs can precompile it (no ajv compile at start-up). */
export { default as optionsSchema } from './options.schema.json';

/**
 * Bookkeeping: JSON map rollout name -> annotation keys it owns. Same key and format as the Argo
 * Rollouts controller, so people (and tools) that know Argo read it the same way.
 */
export const MANAGED_ANNOTATIONS = 'rollouts.argoproj.io/managed-alb-annotations';

/** The AWS Load Balancer Controller reads `actions.<name>` only for a backend port named this. */
export const USE_ANNOTATION = 'use-annotation';

/** The Service name the Ingress routes to and the action is keyed by (Argo: rootService, else stableService). */
export function actionName(options: AlbOptions, stableService: string): string {
  return options.rootService ?? stableService;
}

export function actionKey(prefix: string, name: string): string {
  return `${prefix}/actions.${name}`;
}

export function conditionKey(prefix: string, name: string): string {
  return `${prefix}/conditions.${name}`;
}

/** Stickiness only when enabled, as Argo writes it (the object is left out otherwise). */
export function stickiness(options: AlbOptions): { enabled: true; durationSeconds: number } | undefined {
  const s = options.stickinessConfig;
  return s?.enabled && s.durationSeconds !== undefined
    ? { enabled: true, durationSeconds: s.durationSeconds }
    : undefined;
}
