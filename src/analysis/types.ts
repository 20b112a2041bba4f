/**
 * The analysis engine's public types: plain, readonly, JSON-serializable data. src/analysis is pure core;
 * measuring (HTTP, clock, environment) lives in src/io/metrics.
 *
 * API (stable; `i10-loop` builds on it):
 * - `types.ts`     AnalysisSpec, MetricSpec, ProviderSpec, AnalysisRecord, Measurement, Verdict, GateAnalysis, RolloutAnalysis
 * - `record.ts`    newRecord(spec, key, now), apply(spec, record, metric, measurement) -> record,
 *                  readRecord(parsedJson) -> record (versioned, validated; throws AnalysisRecordError)
 * - `schedule.ts`  due(spec, record, now) -> { metrics: names due now, next?: ISO time of the next one }
 * - `verdict.ts`   verdict(spec, record, { terminating? }) -> { phase, reasons, metrics }
 * - `../io/metrics/measure.ts` measure(metric, { signal, timeoutMs, env, now }) -> Measurement (edge: HTTP; never throws)
 * - `../io/metrics/run.ts`     takeDue(spec, record, { now, env, signal }) -> { record, verdict, taken, next } (one
 *                  scheduled run), runToEnd(spec, options) (`rollgen analyze`)
 * - `gates.ts`     gatesOf(rollout.analysis, step) -> GateAnalysis[]; analysisPasses(kind, phase)
 * - `format.ts`    formatRecord(title, spec, record, verdict) -> table + sparkline text
 * Where specs come from: `LoadedRollout.analysis` (src/spec/loaded-app.ts), resolved by src/app/load-app.ts;
 * `PlannedStep.analysis` is its plain summary for `plan`.
 *
 * A scheduled run (the GitHub loop), per gate of the step that landed:
 *   record = stored ? readRecord(stored) : newRecord(gate.spec, key, now)   // key: app/rollout/gate.id/revision
 *   { record, verdict, next } = await takeDue(gate.spec, record, { now })     // bounded: one request per due metric
 *   store record; analysisPasses(gate.kind, verdict.phase) decides the gate; Failed/Error abort, Inconclusive holds;
 *   Pending/Running: come back at `next`. A background analysis ends with verdict(spec, record, { terminating: true }).
 * Semantics follow Argo Rollouts' AnalysisRun controller (see README "Analysis").
 */
import { Origin } from '../diagnostics';

/** One analysis as it will run: templates merged, args substituted, every condition compiled at plan time. */
export interface AnalysisSpec {
  /** The AnalysisTemplate / ClusterAnalysisTemplate names, in merge order. */
  readonly templates: readonly string[];
  readonly metrics: readonly MetricSpec[];
  /**
   * `provider.job` metrics: not measured by rollgen but committed as Kubernetes Jobs with the step
   * (src/render/analysis-jobs.ts); the GitOps engine's health report on that commit is their result.
   */
  readonly jobs?: readonly JobMetric[];
  /** Where the analysis was asked for (the Rollout step, `canary.analysis`, or rollgen.yaml). */
  readonly origin: Origin;
}

export interface MetricSpec {
  readonly name: string;
  readonly template: string;
  readonly origin: Origin;
  /** Seconds between measurements; undefined = one measurement (unless count > 1, refused at plan time). */
  readonly interval?: number;
  /** Measurements to take; undefined with an interval = until the gate ends (background analysis). */
  readonly count?: number;
  /** Seconds after the analysis started before the first measurement. */
  readonly initialDelay?: number;
  readonly successCondition?: Condition;
  readonly failureCondition?: Condition;
  /** Failed measurements tolerated; -1 = not applicable. Default 0. */
  readonly failureLimit: number;
  /** Default 0. */
  readonly inconclusiveLimit: number;
  /** Default 4. */
  readonly consecutiveErrorLimit: number;
  /** 0 = not used (the default). */
  readonly consecutiveSuccessLimit: number;
  /** A dry-run metric is measured and shown but never decides the analysis. */
  readonly dryRun: boolean;
  readonly provider: ProviderSpec;
}

/** A `provider.job` metric: the Job Argo would create, with the template's args substituted. */
export interface JobMetric {
  readonly name: string;
  readonly template: string;
  readonly origin: Origin;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** The Job's spec (batch/v1 JobSpec) as written, args substituted. */
  readonly spec: Readonly<Record<string, unknown>>;
}

/** An expression in Argo's (expr-lang) syntax over `result`; parsed at plan time. */
export interface Condition {
  readonly source: string;
  readonly origin: Origin;
}

export interface Header {
  readonly key: string;
  readonly value: string;
}

/**
 * Strings may still hold `{{args.NAME}}` of secret args (see `secretArgs`): `measure` fills them from the
 * environment variable named there, so secrets never enter the plan, the record or a PR.
 */
export type ProviderSpec =
  | {
      readonly kind: 'prometheus';
      readonly address: string;
      readonly query: string;
      /** Seconds; Argo's default 30. */
      readonly timeoutSeconds: number;
      readonly headers: readonly Header[];
      readonly insecure: boolean;
      readonly authentication?: MetricAuth;
      /** Set: the query runs over a range (/api/v1/query_range), Argo's `rangeQuery`. */
      readonly rangeQuery?: PrometheusRange;
      readonly secretArgs: readonly SecretArg[];
    }
  | {
      readonly kind: 'web';
      readonly url: string;
      readonly method: 'GET' | 'POST' | 'PUT';
      readonly headers: readonly Header[];
      readonly body?: string;
      /** Path into the JSON response (k8s JSONPath subset, e.g. `{$.data.ok}`); undefined = the whole body. */
      readonly jsonPath?: string;
      /** Seconds; Argo's default 10. */
      readonly timeoutSeconds: number;
      readonly insecure: boolean;
      readonly authentication?: Pick<MetricAuth, 'oauth2'>;
      readonly secretArgs: readonly SecretArg[];
    }
  | DatadogProvider
  | NewRelicProvider
  | CloudWatchProvider
  | InfluxDbProvider
  | GraphiteProvider
  | WavefrontProvider
  | SkyWalkingProvider
  | KayentaProvider;

/** A time as Argo's rangeQuery writes it (`now() - duration("1h")`): see time-expression.ts. */
export interface TimeExpr {
  /** `now`: the measurement's clock; otherwise a fixed instant (ms since the epoch). */
  readonly base: 'now' | number;
  readonly offsetSeconds: number;
}

/** Argo's `prometheus.rangeQuery`: times relative to the measurement's clock, and the step between points. */
export interface PrometheusRange {
  readonly start: TimeExpr;
  readonly end: TimeExpr;
  readonly stepSeconds: number;
}

/** Argo's `prometheus.authentication` and `web.authentication` (web: oauth2 only, as Argo's web provider); strings may hold secret args. */
export interface MetricAuth {
  readonly basic?: { readonly username: string; readonly password: string };
  /** OAuth2 client credentials: a token from `tokenUrl`, sent as a Bearer token. */
  readonly oauth2?: {
    readonly tokenUrl: string;
    readonly clientId: string;
    readonly clientSecret: string;
    readonly scopes: readonly string[];
  };
  /**
   * Amazon Managed Prometheus: requests signed for service `aps` with the AWS SDK's credentials, or with
   * the temporary credentials of `roleArn` assumed through STS with them.
   */
  readonly sigv4?: { readonly region?: string; readonly profile?: string; readonly roleArn?: string };
}

/** Datadog (Argo's `provider.datadog`): v1 `/api/v1/query` or v2 `/api/v2/query/scalar` over the last `intervalSeconds`. */
export interface DatadogProvider {
  readonly kind: 'datadog';
  readonly apiVersion: 'v1' | 'v2';
  /** v1, or v2 with a single query (sent as query `query`). */
  readonly query?: string;
  /** v2: name -> query, combined by `formula`. */
  readonly queries?: Readonly<Record<string, string>>;
  readonly formula?: string;
  /** v2; Argo's default `last`. */
  readonly aggregator?: string;
  /** The time window queried, seconds; Argo's default 5m. */
  readonly intervalSeconds: number;
  /** Seconds (`requestTimeout`); Argo's default 10. */
  readonly timeoutSeconds: number;
  readonly credentials: Credentials;
  readonly secretArgs: readonly SecretArg[];
}

/** New Relic (Argo's `provider.newRelic`): an NRQL query through NerdGraph. */
export interface NewRelicProvider {
  readonly kind: 'newrelic';
  readonly query: string;
  /** NRQL timeout, seconds; Argo's default 5. */
  readonly nrqlTimeout: number;
  readonly timeoutSeconds: number;
  readonly credentials: Credentials;
  readonly secretArgs: readonly SecretArg[];
}

/** InfluxDB (Argo's `provider.influxdb`): a Flux query through InfluxData's client. */
export interface InfluxDbProvider {
  readonly kind: 'influxdb';
  readonly query: string;
  readonly timeoutSeconds: number;
  readonly credentials: Credentials;
  readonly secretArgs: readonly SecretArg[];
}

/** Graphite (Argo's `provider.graphite`): the render API; no credentials, as in Argo. */
export interface GraphiteProvider {
  readonly kind: 'graphite';
  readonly address: string;
  /** Render API parameters (`target=...&from=-5min`); whitespace is removed, as Argo does. */
  readonly query: string;
  readonly timeoutSeconds: number;
  readonly secretArgs: readonly SecretArg[];
}

/** Wavefront (Argo's `provider.wavefront`): a WQL query at the time of the measurement. */
export interface WavefrontProvider {
  readonly kind: 'wavefront';
  /** The Wavefront host (`example.wavefront.com`); https unless a scheme is written. */
  readonly address: string;
  readonly query: string;
  readonly timeoutSeconds: number;
  readonly credentials: Credentials;
  readonly secretArgs: readonly SecretArg[];
}

/** SkyWalking (Argo's `provider.skywalking`): a GraphQL query over the last `intervalSeconds`. */
export interface SkyWalkingProvider {
  readonly kind: 'skywalking';
  readonly address: string;
  readonly query: string;
  readonly intervalSeconds: number;
  readonly timeoutSeconds: number;
  readonly secretArgs: readonly SecretArg[];
}

/** Kayenta (Argo's `provider.kayenta`): a canary judgement whose score, against `threshold`, is the phase. */
export interface KayentaProvider {
  readonly kind: 'kayenta';
  readonly address: string;
  readonly application: string;
  readonly canaryConfigName: string;
  readonly metricsAccountName: string;
  readonly configurationAccountName: string;
  readonly storageAccountName: string;
  readonly threshold: { readonly pass: number; readonly marginal: number };
  readonly scopes: readonly {
    readonly name: string;
    readonly control: KayentaScopeDetail;
    readonly experiment: KayentaScopeDetail;
  }[];
  /** Judge from the start of the analysis instead of the last metric interval. */
  readonly lookback: boolean;
  readonly timeoutSeconds: number;
  readonly secretArgs: readonly SecretArg[];
}

export interface KayentaScopeDetail {
  readonly scope: string;
  readonly region: string;
  readonly step: number;
  readonly start?: string;
  readonly end?: string;
}

/** CloudWatch (Argo's `provider.cloudWatch`): GetMetricData over the last `intervalSeconds`. */
export interface CloudWatchProvider {
  readonly kind: 'cloudwatch';
  /** Argo's default 5m. */
  readonly intervalSeconds: number;
  /** GetMetricData's MetricDataQueries, in the AWS API's own (PascalCase) shape. */
  readonly metricDataQueries: readonly Readonly<Record<string, unknown>>[];
  readonly timeoutSeconds: number;
  readonly secretArgs: readonly SecretArg[];
}

/**
 * Where a provider's credentials come from: the Kubernetes Secret Argo reads, each of its keys read
 * instead from the first set environment variable of `env` (rollgen.yaml `metricSecrets`, or the default names).
 */
export interface Credentials {
  /** The Secret Argo would read (for messages). */
  readonly secret: string;
  readonly keys: readonly CredentialKey[];
}

export interface CredentialKey {
  readonly key: string;
  readonly env: readonly string[];
  readonly required: boolean;
  /** A key, not an address: its value is replaced by ***** wherever it would be shown. */
  readonly secret: boolean;
}

/** An arg Argo would read from a Secret: rollgen reads it from an environment variable at measurement time. */
export interface SecretArg {
  readonly name: string;
  readonly env: string;
}

export type MeasurementPhase = 'Successful' | 'Failed' | 'Inconclusive' | 'Error';
export type AnalysisPhase = 'Pending' | 'Running' | MeasurementPhase;

export interface Measurement {
  /** ISO 8601 times. */
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly phase: MeasurementPhase;
  /** The result as Argo prints it: `[0.99]` for a vector, `0.5` for a scalar, JSON for web. */
  readonly value?: string;
  readonly message?: string;
}

export const RECORD_VERSION = 1;

/**
 * The whole history of one analysis run, stored between runs (a check run, a file): a later run on a
 * fresh machine continues from it. Counters are kept because only the last `MEASUREMENT_HISTORY`
 * measurements of a metric are (Argo keeps 10).
 */
export interface AnalysisRecord {
  readonly version: typeof RECORD_VERSION;
  /** What is analysed, chosen by the caller (e.g. `echoserver/step-2/<revision>`); a record of another key is not continued. */
  readonly key: string;
  readonly startedAt: string;
  readonly metrics: readonly MetricRecord[];
}

export interface MetricRecord {
  readonly name: string;
  readonly count: number;
  readonly successful: number;
  readonly failed: number;
  readonly inconclusive: number;
  readonly error: number;
  readonly consecutiveError: number;
  readonly consecutiveSuccess: number;
  /** Oldest first; at most MEASUREMENT_HISTORY. */
  readonly measurements: readonly Measurement[];
}

export const MEASUREMENT_HISTORY = 30;

export interface MetricVerdict {
  readonly name: string;
  readonly phase: AnalysisPhase;
  readonly dryRun: boolean;
  /** Why, when the phase is not Pending/Running/Successful: "failed (2) > failureLimit (1)". */
  readonly message?: string;
}

export interface Verdict {
  readonly phase: AnalysisPhase;
  /** One line per metric that decided the phase, e.g. `metric "error-rate" assessed Failed due to failed (2) > failureLimit (1)`. */
  readonly reasons: readonly string[];
  readonly metrics: readonly MetricVerdict[];
}

export interface Due {
  /** Metric names to measure now. */
  readonly metrics: readonly string[];
  /** ISO time when the next measurement falls due, if any remain. */
  readonly next?: string;
}

/** One analysis gating a step: an Argo step `analysis`, the background analysis, or rollgen.yaml's. */
export interface GateAnalysis {
  /** `step` runs until complete before the step may move on; `background` is checked at every gate from `startingStep` on. */
  readonly kind: 'step' | 'background';
  /** Stable id within the rollout: `step-N` / `background`; part of a record key. */
  readonly id: string;
  readonly spec: AnalysisSpec;
}

/** Every analysis of one rollout, resolved at plan time. */
export interface RolloutAnalysis {
  /** rollgen step index (1-based) -> analyses that gate it (Argo step `analysis` entries after that step). */
  readonly steps: Readonly<Record<number, readonly AnalysisSpec[]>>;
  readonly background?: { readonly spec: AnalysisSpec; readonly startingStep: number };
  /**
   * rollgen step -> the analyses of its experiment not `requiredForCompletion`: like a background
   * analysis they pass the gate while running and fail it when they fail (Argo ends them with the
   * experiment). Required ones are in `steps`.
   */
  readonly experiments?: Readonly<Record<number, readonly AnalysisSpec[]>>;
}
