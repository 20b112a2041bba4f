import { Value } from '../../analysis/builtins';
import { CloudWatchProvider } from '../../analysis/types';
import { ProviderResult } from './prometheus';

export interface CloudWatchQuery {
  readonly spec: CloudWatchProvider;
  readonly fill: (text: string) => string;
  readonly now: Date;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Where the AWS settings are read (the measurement's environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Argo's CloudWatch provider: GetMetricData over [now - interval, now], configured as the AWS SDK
 * configures itself (AWS_REGION, AWS_ACCESS_KEY_ID or the SDK's credential chain, AWS_ENDPOINT_URL_CLOUDWATCH).
 * The result is MetricDataResults as Argo's expressions see them: `result[0].Values`.
 */
export async function queryCloudWatch(q: CloudWatchQuery): Promise<ProviderResult> {
  const { CloudWatchClient, GetMetricDataCommand } = awsSdk();
  const client = new CloudWatchClient(clientConfig(q.env));
  const queries = JSON.parse(q.fill(JSON.stringify(q.spec.metricDataQueries)));
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`no response within ${q.timeoutMs / 1000}s`)), q.timeoutMs);
  const stop = () => deadline.abort(q.signal?.reason);
  q.signal?.addEventListener('abort', stop);
  try {
    const out = await client.send(
      new GetMetricDataCommand({
        StartTime: new Date(q.now.getTime() - q.spec.intervalSeconds * 1000),
        EndTime: q.now,
        MetricDataQueries: queries,
      }),
      { abortSignal: deadline.signal },
    );
    const results = (out.MetricDataResults ?? []).map(
      (r): Value => ({
        Id: r.Id ?? null,
        Label: r.Label ?? null,
        Timestamps: (r.Timestamps ?? []).map((t) => t.toISOString()),
        Values: r.Values ?? [],
        StatusCode: r.StatusCode ?? null,
        Messages: (r.Messages ?? []).map((m) => ({ Code: m.Code ?? null, Value: m.Value ?? null })),
      }),
    );
    // Argo prints the values as Go's %+v of [][]float64: [[1 2] [3]].
    const text = `[${(out.MetricDataResults ?? []).map((r) => `[${(r.Values ?? []).join(' ')}]`).join(' ')}]`;
    return { result: results, text };
  } finally {
    clearTimeout(timer);
    q.signal?.removeEventListener('abort', stop);
    client.destroy();
  }
}

/** The SDK's standard variables, read from the measurement's environment; without keys, the SDK's own chain (web identity, profiles). */
function clientConfig(env: Readonly<Record<string, string | undefined>>) {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region)
    throw new Error('CloudWatch needs a region: set AWS_REGION (aws-actions/configure-aws-credentials sets it)');
  const endpoint = env.AWS_ENDPOINT_URL_CLOUDWATCH ?? env.AWS_ENDPOINT_URL;
  const keys =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {};
  return { region, maxAttempts: 1, ...(endpoint ? { endpoint } : {}), ...keys };
}

/**
 * The AWS SDK, required on the first CloudWatch measurement (its own chunk, dist/vendor/aws.js):
 * never at start-up. Its warning that later SDK releases will need Node 22 speaks to rollgen's
 * maintainers, not to the person running `rollgen analyze`, so it is turned off unless set.
 */
function awsSdk(): typeof import('@aws-sdk/client-cloudwatch') {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@aws-sdk/client-cloudwatch') as typeof import('@aws-sdk/client-cloudwatch');
}
