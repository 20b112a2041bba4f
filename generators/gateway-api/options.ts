/**
 * Options of the gateway-api generator, one shape for both formats: Kruise
 * (`trafficRoutings[].gateway.httpRouteName`) hands over `{httpRoutes: [name]}`; the Argo
 * gatewayAPI plugin options are mapped by `argoGatewayOptions` (inputs.ts). The core
 * validates them against `optionsSchema`, filling the defaults, before any generator function runs.
 */
export interface GatewayOptions {
  /** HTTPRoute names; weights go to every rule of each that routes to the stable Service. */
  readonly httpRoutes: readonly string[];
  /** HTTPRoutes that also get the Argo setHeaderRoute / setMirrorRoute rules (plugin `useHeaderRoutes`). */
  readonly useHeaderRoutes: readonly string[];
  /** Namespace of the HTTPRoutes (Argo plugin `namespace`); default the rollout's. */
  readonly namespace?: string;
  /** Argo plugin label put on a route while its canary weight is above 0. */
  readonly inProgressLabel?: { readonly key: string; readonly value: string };
  /** Plugin options rollgen cannot render (GRPCRoute, TCPRoute, selectors, ...); `check` refuses each. */
  readonly unsupported: readonly string[];
}

/** The schema lives in JSON so scripts/compile-schemas.mjs can precompile it. */
export { default as optionsSchema } from './options.schema.json';
