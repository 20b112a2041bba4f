import { Value } from '../../analysis/builtins';
import { CloudWatchProvider } from '../../analysis/types';
import { ProviderResult } from './prometheus';

export interface CloudWatchQuery {
  readonly spec: CloudWatchProvider;
  readonly fill: (text: string) => string;
  readonly now: Date;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Argo's CloudWatch provider: GetMetricData over [now - interval, now] with the AWS SDK's own region,
 * credentials and endpoint (AWS_REGION, AWS_ACCESS_KEY_ID or web identity, AWS_ENDPOINT_URL_CLOUDWATCH).
 * The result is MetricDataResults as Argo's expressions see them: `result[0].Values`.
 */
export async function queryCloudWatch(q: CloudWatchQuery): Promise<ProviderResult> {
  // The AWS SDK is loaded here, on the first CloudWatch measurement: never at start-up.
  const { CloudWatchClient, GetMetricDataCommand } = await import('@aws-sdk/client-cloudwatch');
  const client = new CloudWatchClient({ maxAttempts: 1 });
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
