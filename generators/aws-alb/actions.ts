import type { NamedRoute, ValueMatch } from '../../src/model/rollout';

/** One target group of a forward action: a Service, its port and a relative weight (0..999 on ALB). */
export interface TargetGroup {
  readonly service: string;
  readonly port: number;
  readonly weight: number;
}

export interface Stickiness {
  readonly enabled: true;
  readonly durationSeconds: number;
}

/**
 * The `actions.<name>` value: a forward action in the key order the Argo controller marshals
 * (Type, ForwardConfig{TargetGroups[{ServiceName, ServicePort, Weight}], TargetGroupStickinessConfig}),
 * compact like Go's encoding/json, so the bytes do not change between runs or versus Argo.
 * ServicePort is a string because the AWS Load Balancer Controller also accepts port names there.
 */
export function forwardAction(groups: readonly TargetGroup[], sticky?: Stickiness): string {
  const forwardConfig = {
    TargetGroups: groups.map((g) => ({ ServiceName: g.service, ServicePort: String(g.port), Weight: g.weight })),
    ...(sticky
      ? { TargetGroupStickinessConfig: { Enabled: sticky.enabled, DurationSeconds: sticky.durationSeconds } }
      : {}),
  };
  return JSON.stringify({ Type: 'forward', ForwardConfig: forwardConfig });
}

/**
 * The weighted split: canary first, then Argo's experiment Services, stable last (Argo's order),
 * weights summing to 100. `weight` is the canary share out of 100; the caller guarantees a whole
 * number in 0..100 (with the experiments' shares).
 */
export function weightedGroups(
  canary: string,
  stable: string,
  port: number,
  weight: number,
  experiments: readonly { readonly service: string; readonly weight: number }[] = [],
): TargetGroup[] {
  const taken = experiments.reduce((n, e) => n + e.weight, 0);
  return [
    { service: canary, port, weight },
    ...experiments.map((e) => ({ service: e.service, port, weight: e.weight })),
    { service: stable, port, weight: 100 - weight - taken },
  ];
}

/** A header route sends every matching request to the canary. */
export function canaryOnly(canary: string, port: number): TargetGroup[] {
  return [{ service: canary, port, weight: 100 }];
}

/**
 * ALB http-header values compare case-insensitively with `*` and `?` wildcards, so an Exact
 * value is written as is and a Prefix value gets a trailing `*`. Values that already hold a
 * wildcard character are refused earlier (features.ts): ALB has no escape for them.
 */
export function headerValue(m: ValueMatch): string {
  return m.type === 'Prefix' ? `${m.value}*` : m.value;
}

/**
 * The `conditions.<route>` value: one http-header condition per header name with all its values
 * (values of one condition are ORed by ALB, which is how Argo's ORed match entries on the same
 * header stay ORed). Header names keep their first spelling; ALB compares them case-insensitively.
 */
export function headerConditions(route: NamedRoute): string {
  const byName = new Map<string, { name: string; values: string[] }>();
  for (const h of route.matches.flatMap((m) => m.headers)) {
    const key = h.name.toLowerCase();
    const entry = byName.get(key) ?? { name: h.name, values: [] };
    const value = headerValue(h);
    if (!entry.values.includes(value)) entry.values.push(value);
    byName.set(key, entry);
  }
  const conditions = [...byName.values()].map((e) => ({
    field: 'http-header',
    httpHeaderConfig: { httpHeaderName: e.name, values: e.values },
  }));
  return JSON.stringify(conditions);
}
