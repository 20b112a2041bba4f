/** A field block of a rollout format, as written (already schema-checked). */
export type InputBlock = Readonly<Record<string, unknown>>;

/** One provider a rollout format names, with the options it hands over (validated later against the provider's schema). */
export interface ProviderInput {
  readonly provider: string;
  readonly options: Record<string, unknown>;
}

/**
 * A generator's input adapters: which entries of each rollout format name it, and how their fields
 * become its options. The normalizers ask the registry through `ProviderInputs`, so adding a
 * provider, or a format entry for one, edits that provider's folder, not the core.
 */
export interface InputAdapters {
  /** Argo `trafficRouting.<key>`, plugins as `plugins/<name>` (e.g. `plugins/argoproj-labs/gatewayAPI`). */
  readonly argo?: { readonly key: string; readonly options?: (block: InputBlock) => Record<string, unknown> };
  /** Kruise `trafficRoutings[].ingress` with one of these `classType` values. */
  readonly kruiseIngress?: {
    readonly classTypes: readonly string[];
    readonly options: (ingress: InputBlock) => Record<string, unknown>;
  };
  /** Kruise `trafficRoutings[].gateway`. */
  readonly kruiseGateway?: { readonly options: (gateway: InputBlock) => Record<string, unknown> };
  /**
   * Kruise `customNetworkRefs` (the options are `{refs}`): taken when `accepts` says so; a provider
   * without `accepts` takes the refs no other provider accepts.
   */
  readonly kruiseCustomRefs?: { readonly accepts?: (refs: readonly InputBlock[]) => boolean };
}

/** What the normalizers ask the registry (built from every generator's `InputAdapters`); undefined: no provider reads it. */
export interface ProviderInputs {
  argo(key: string, block: InputBlock): ProviderInput | undefined;
  /** Every Argo trafficRouting key some provider reads (plugins as `plugins/<name>`), for ledgers and messages. */
  readonly argoKeys: readonly string[];
  kruiseIngress(classType: string, ingress: InputBlock): ProviderInput | undefined;
  /** Every Kruise ingress classType some provider reads, for the message naming the choices. */
  readonly kruiseIngressClasses: readonly string[];
  kruiseGateway(gateway: InputBlock): ProviderInput | undefined;
  kruiseCustomRefs(refs: readonly InputBlock[]): ProviderInput | undefined;
}
