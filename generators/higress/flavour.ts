/**
 * Higress and Alibaba MSE read the same canary annotations (MSE's Ingress gateway is the
 * commercial Higress). Each flavour says where the two differ, so one implementation serves both.
 */
export interface Flavour {
  /** Generator id, also the claim namespace. */
  readonly id: 'higress' | 'mse';
  /** Product name for messages. */
  readonly product: string;
  /** Prefix of the extension annotations (header control, query match, service subset). */
  readonly extPrefix: string;
  /** MSE documents canary-by-query(-value|-pattern); open-source Higress has no query canary. */
  readonly queryMatch: boolean;
  /**
   * Open-source Higress turns canary-by-header-value V into the regex `always|V` (canary.go), so a
   * value with regex metacharacters would match more than the exact value; MSE documents an exact match.
   */
  readonly headerValueIsRegex: boolean;
  /** MSE: a stable Ingress carrying service-subset gets `gray` on the canary (as Kruise's mse.lua does). */
  readonly serviceSubset: boolean;
}

/** The nginx-compatible keys both products read (`nginx.ingress.kubernetes.io/canary*`). */
export const NGINX_PREFIX = 'nginx.ingress.kubernetes.io';

export const HIGRESS: Flavour = {
  id: 'higress',
  product: 'Higress',
  extPrefix: 'higress.io',
  queryMatch: false,
  headerValueIsRegex: true,
  serviceSubset: false,
};

export const MSE: Flavour = {
  id: 'mse',
  product: 'MSE Ingress',
  extPrefix: 'mse.ingress.kubernetes.io',
  queryMatch: true,
  headerValueIsRegex: false,
  serviceSubset: true,
};
