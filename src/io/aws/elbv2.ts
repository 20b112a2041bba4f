import type * as Elbv2 from '@aws-sdk/client-elastic-load-balancing-v2';

/** The tags the AWS Load Balancer Controller puts on what it creates (and Argo Rollouts reads). */
export const STACK_TAG = 'ingress.k8s.aws/stack';
export const RESOURCE_TAG = 'ingress.k8s.aws/resource';
export const CLUSTER_TAG = 'elbv2.k8s.aws/cluster';

type Env = Readonly<Record<string, string | undefined>>;

export interface AwsTarget {
  readonly region: string;
  readonly cluster?: string;
  readonly env: Env;
}

/** One forward action of a listener rule: which target groups at which weight. */
export interface AlbForward {
  /** `HTTPS:443 rule 3` */
  readonly where: string;
  readonly targetGroups: readonly { readonly arn: string; readonly weight: number }[];
}

/** What the load balancer of one Ingress (or IngressGroup) shows. */
export interface AlbView {
  readonly name: string;
  /** `ingress.k8s.aws/resource` tag -> target group ARN. */
  readonly targetGroups: ReadonlyMap<string, string>;
  readonly forwards: readonly AlbForward[];
}

/** A reading, or why there is none (an AWS error, throttling, no such load balancer): never a pass. */
export type Reading<T> = { readonly ok: T } | { readonly error: string };

/**
 * The load balancer the controller made for `stack` (an Ingress's `namespace/name`, or its group
 * name), found by its tags as the controller finds its own (DescribeLoadBalancers + DescribeTags),
 * then its target groups' resource tags and its listener rules' forward actions. Never throws.
 */
export async function readAlb(t: AwsTarget, stack: string): Promise<Reading<AlbView>> {
  const sdk = awsSdk();
  const client = new sdk.ElasticLoadBalancingV2Client(clientConfig(t));
  try {
    const lbs = await pages(
      (Marker) => client.send(new sdk.DescribeLoadBalancersCommand({ Marker })),
      (o) => o.LoadBalancers ?? [],
    );
    const tags = await tagsOf(
      client,
      sdk,
      lbs.map((lb) => lb.LoadBalancerArn!),
    );
    const mine = lbs.filter((lb) => {
      const own = tags.get(lb.LoadBalancerArn!);
      return own?.get(STACK_TAG) === stack && (t.cluster === undefined || own.get(CLUSTER_TAG) === t.cluster);
    });
    const tagged = `${STACK_TAG}=${stack}${t.cluster ? ` and ${CLUSTER_TAG}=${t.cluster}` : ''}`;
    if (mine.length === 0) return { error: `no load balancer in ${t.region} carries the tag ${tagged} (yet)` };
    if (mine.length > 1)
      return {
        error: `${mine.length} load balancers carry the tag ${tagged}; set verify.aws.cluster to the controller's cluster name`,
      };
    const lb = mine[0];
    const arn = lb.LoadBalancerArn!;
    const groups = await pages(
      (Marker) => client.send(new sdk.DescribeTargetGroupsCommand({ LoadBalancerArn: arn, Marker })),
      (o) => o.TargetGroups ?? [],
    );
    const groupTags = await tagsOf(
      client,
      sdk,
      groups.map((g) => g.TargetGroupArn!),
    );
    const targetGroups = new Map<string, string>();
    for (const [groupArn, own] of groupTags)
      if (own.has(RESOURCE_TAG)) targetGroups.set(own.get(RESOURCE_TAG)!, groupArn);
    const forwards = await forwardsOf(client, sdk, arn);
    return { ok: { name: lb.LoadBalancerName ?? arn, targetGroups, forwards } };
  } catch (e) {
    return { error: awsError(e) };
  } finally {
    client.destroy();
  }
}

/** `ip:port` of every target registered in a target group, whatever its health (Argo counts them so too). */
export async function readRegisteredTargets(t: AwsTarget, targetGroupArn: string): Promise<Reading<string[]>> {
  const sdk = awsSdk();
  const client = new sdk.ElasticLoadBalancingV2Client(clientConfig(t));
  try {
    const out = await client.send(new sdk.DescribeTargetHealthCommand({ TargetGroupArn: targetGroupArn }));
    const targets = (out.TargetHealthDescriptions ?? []).filter((d) => d.Target?.Id && d.Target.Port !== undefined);
    return { ok: targets.map((d) => `${d.Target!.Id}:${d.Target!.Port}`) };
  } catch (e) {
    return { error: awsError(e) };
  } finally {
    client.destroy();
  }
}

type Sdk = typeof Elbv2;
type Client = Elbv2.ElasticLoadBalancingV2Client;

async function forwardsOf(client: Client, sdk: Sdk, lbArn: string): Promise<AlbForward[]> {
  const listeners = await pages(
    (Marker) => client.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: lbArn, Marker })),
    (o) => o.Listeners ?? [],
  );
  const out: AlbForward[] = [];
  for (const l of listeners) {
    const rules = await pages(
      (Marker) => client.send(new sdk.DescribeRulesCommand({ ListenerArn: l.ListenerArn!, Marker })),
      (o) => o.Rules ?? [],
    );
    for (const r of rules)
      for (const a of r.Actions ?? []) {
        if (a.Type !== 'forward') continue;
        const where = `${l.Protocol ?? '?'}:${l.Port ?? '?'} rule ${r.Priority ?? '?'}`;
        const fc = a.ForwardConfig?.TargetGroups;
        const targetGroups = fc
          ? fc.map((g) => ({ arn: g.TargetGroupArn!, weight: g.Weight ?? 1 }))
          : a.TargetGroupArn
            ? [{ arn: a.TargetGroupArn, weight: 1 }]
            : [];
        out.push({ where, targetGroups });
      }
  }
  return out;
}

/** Tags of many resources, 20 ARNs a DescribeTags call (the API's limit). */
async function tagsOf(client: Client, sdk: Sdk, arns: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (let i = 0; i < arns.length; i += 20) {
    const res = await client.send(new sdk.DescribeTagsCommand({ ResourceArns: arns.slice(i, i + 20) }));
    for (const d of res.TagDescriptions ?? [])
      out.set(d.ResourceArn!, new Map((d.Tags ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? ''])));
  }
  return out;
}

/** Every page of a Marker-paged ELBv2 call. */
async function pages<O extends { NextMarker?: string }, T>(
  call: (marker: string | undefined) => Promise<O>,
  items: (o: O) => readonly T[],
): Promise<T[]> {
  const all: T[] = [];
  let marker: string | undefined;
  do {
    const o = await call(marker);
    all.push(...items(o));
    marker = o.NextMarker;
  } while (marker);
  return all;
}

/** The error as one line: its code and message (an SDK error never carries the credentials). */
function awsError(e: unknown): string {
  const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode ? ` (HTTP ${err.$metadata.httpStatusCode})` : '';
  return `AWS Elastic Load Balancing answered ${err.name ?? 'an error'}${status}: ${err.message ?? String(e)}`;
}

/**
 * The region of the app; credentials from the SDK's default chain (environment, web identity as the
 * AWS credentials action sets it up, profiles); an endpoint override as the SDK's own variables name it.
 */
function clientConfig(t: AwsTarget): Elbv2.ElasticLoadBalancingV2ClientConfig {
  const e = t.env;
  const endpoint = e.AWS_ENDPOINT_URL_ELASTIC_LOAD_BALANCING_V2 ?? e.AWS_ENDPOINT_URL;
  // The run's environment is the one rollgen was given (the Action's, a test's): its keys first, as the chain would take them.
  const keys =
    e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: e.AWS_ACCESS_KEY_ID,
            secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
            ...(e.AWS_SESSION_TOKEN ? { sessionToken: e.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {};
  return { region: t.region, ...(endpoint ? { endpoint } : {}), ...keys };
}

/** The AWS SDK's ELBv2 client, required on the first verification (dist/vendor/aws.js): never at start-up. */
function awsSdk(): Sdk {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@aws-sdk/client-elastic-load-balancing-v2') as Sdk;
}
