import * as path from 'path';
import { Diagnostic, Origin } from '../diagnostics';
import { isObject } from '../model/kube';

type Locate = (path: readonly (string | number)[]) => Origin;

/** `verify.aws` of rollgen.yaml: what the AWS Load Balancer Controller must show before a step moves on. */
export interface AwsVerifyConfig {
  /** The ALB's listener rules forward with the committed weights before the next step merges. */
  readonly weights: boolean;
  /** The serving target groups hold every ready endpoint IP before a step scales pods down. */
  readonly targetGroupIPs: boolean;
  readonly region: string;
  /** The controller's `elbv2.k8s.aws/cluster` tag, when several clusters share an account and region. */
  readonly cluster?: string;
  /** Absolute path of the kubeconfig for the EndpointSlice read; undefined: the KUBECONFIG variable. */
  readonly kubeconfig?: string;
}

export interface VerifyConfig {
  readonly aws?: AwsVerifyConfig;
}

/**
 * `verify:` of an entry, or the top-level one when the entry has none (an app's replaces the
 * shared one, as `health:` does). The schema has checked the shape; paths resolve against `root`.
 */
export function verifyConfig(entry: unknown, shared: unknown, root: string): VerifyConfig | undefined {
  const v = entry ?? shared;
  if (!isObject(v) || !isObject(v.aws)) return undefined;
  const a = v.aws;
  return {
    aws: {
      weights: a.weights === true,
      targetGroupIPs: a.targetGroupIPs === true,
      region: String(a.region),
      ...(typeof a.cluster === 'string' ? { cluster: a.cluster } : {}),
      ...(typeof a.kubeconfig === 'string' ? { kubeconfig: path.resolve(root, a.kubeconfig) } : {}),
    },
  };
}

/**
 * A `verify.aws` that turns nothing on would look like a safety check and check nothing: refused at
 * its line, top-level and per app.
 */
export function verifyProblems(config: Record<string, unknown>, locate: Locate): Diagnostic[] {
  const apps = Array.isArray(config.apps) ? config.apps : [];
  const places: [readonly (string | number)[], unknown][] = [
    [['verify'], config.verify],
    ...apps.map((e, i): [readonly (string | number)[], unknown] => [
      ['apps', i, 'verify'],
      isObject(e) ? e.verify : undefined,
    ]),
  ];
  return places.flatMap(([at, v]) => {
    if (!isObject(v) || !isObject(v.aws) || v.aws.weights === true || v.aws.targetGroupIPs === true) return [];
    return [
      {
        ...locate([...at, 'aws']),
        severity: 'error' as const,
        message: `verify.aws turns no verification on; set weights: true and/or targetGroupIPs: true, or remove it`,
      },
    ];
  });
}
