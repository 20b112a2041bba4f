import { KubeObject, isObject } from '../model/kube';

/**
 * What the committed output says the AWS Load Balancer Controller must build, and the judgement of
 * what AWS shows against it. Pure: the readings come from src/io/aws and src/io/kube.
 */

/** One verification of the current step: passed, or waiting and why (never a pass on an error). */
export interface VerifyResult {
  readonly state: 'verified' | 'waiting';
  readonly detail: string;
}

/** A target group as the controller names it: `ingress.k8s.aws/resource` = `<ns>/<ingress>-<service>:<port>`. */
export interface Backend {
  readonly service: string;
  /** The Service port as the Ingress names it (a number or a port name). */
  readonly port: string;
  readonly resource: string;
}

export interface CommittedAction {
  readonly name: string;
  readonly targetGroups: readonly (Backend & { readonly weight: number })[];
}

/** An Ingress of the output the AWS Load Balancer Controller serves. */
export interface AlbIngress {
  readonly namespace: string;
  readonly name: string;
  /** `ingress.k8s.aws/stack`: the group name, or `<ns>/<name>` for an Ingress of its own. */
  readonly stack: string;
  readonly ipTargets: boolean;
  readonly actions: readonly CommittedAction[];
  /** Backends that take traffic: plain backends, and action target groups of weight above 0. */
  readonly serving: readonly Backend[];
}

const DEFAULT_PREFIX = 'alb.ingress.kubernetes.io';

/** The ALB Ingresses of the output: class `alb`, or carrying a forward action annotation. */
export function albIngresses(objects: readonly KubeObject[]): AlbIngress[] {
  return objects
    .filter((o) => o.kind === 'Ingress')
    .flatMap((o) => {
      const ann = (o.metadata.annotations ?? {}) as Record<string, string>;
      const actionKeys = Object.keys(ann).filter(
        (k) => /\/actions\.[^/]+$/.test(k) && forwardGroups(ann[k]) !== undefined,
      );
      const spec = isObject(o.spec) ? o.spec : {};
      const cls = spec.ingressClassName ?? ann['kubernetes.io/ingress.class'];
      if (cls !== 'alb' && actionKeys.length === 0) return [];
      const prefix = actionKeys[0]?.split('/actions.')[0] ?? DEFAULT_PREFIX;
      const namespace = o.metadata.namespace ?? 'default';
      const name = o.metadata.name;
      const backend = (service: string, port: string): Backend => ({
        service,
        port,
        resource: `${namespace}/${name}-${service}:${port}`,
      });
      const actions = actionKeys.map((k) => ({
        name: k.split('/actions.')[1],
        targetGroups: forwardGroups(ann[k])!.map((g) => ({ ...backend(g.service, g.port), weight: g.weight })),
      }));
      const serving = uniqueBackends(
        ingressBackends(spec).flatMap(({ service, port }) => {
          if (port !== 'use-annotation') return [backend(service, port)];
          const action = actions.find((a) => a.name === service);
          return (action?.targetGroups ?? []).filter((g) => g.weight > 0);
        }),
      );
      const group = ann[`${prefix}/group.name`];
      return [
        {
          namespace,
          name,
          stack: group ?? `${namespace}/${name}`,
          ipTargets: ann[`${prefix}/target-type`] === 'ip',
          actions,
          serving,
        },
      ];
    });
}

/** The target groups of a forward action annotation; undefined when it is not one. */
function forwardGroups(text: string): { service: string; port: string; weight: number }[] | undefined {
  try {
    const a = JSON.parse(text) as { Type?: string; ForwardConfig?: { TargetGroups?: Record<string, unknown>[] } };
    const groups = a.Type === 'forward' ? a.ForwardConfig?.TargetGroups : undefined;
    if (!groups || groups.some((g) => typeof g.ServiceName !== 'string')) return undefined;
    return groups.map((g) => ({
      service: String(g.ServiceName),
      port: String(g.ServicePort),
      weight: typeof g.Weight === 'number' ? g.Weight : 1,
    }));
  } catch {
    return undefined;
  }
}

function ingressBackends(spec: Record<string, unknown>): { service: string; port: string }[] {
  const one = (b: unknown) => {
    const svc = isObject(b) && isObject(b.service) ? b.service : undefined;
    if (!svc || typeof svc.name !== 'string' || !isObject(svc.port)) return [];
    const port = svc.port.name ?? svc.port.number;
    return port === undefined ? [] : [{ service: svc.name, port: String(port) }];
  };
  const rules = Array.isArray(spec.rules) ? spec.rules : [];
  const paths = rules.flatMap((r) =>
    isObject(r) && isObject(r.http) && Array.isArray(r.http.paths) ? r.http.paths : [],
  );
  return [...one(spec.defaultBackend), ...paths.flatMap((p) => (isObject(p) ? one(p.backend) : []))];
}

function uniqueBackends(list: readonly Backend[]): Backend[] {
  return [
    ...new Map(list.map((b) => [b.resource, { service: b.service, port: b.port, resource: b.resource }])).values(),
  ];
}

/** What one load balancer shows (src/io/aws/elbv2.ts AlbView, as the judgement needs it). */
export interface AlbShown {
  readonly name: string;
  readonly targetGroups: ReadonlyMap<string, string>;
  readonly forwards: readonly {
    readonly where: string;
    readonly targetGroups: readonly { arn: string; weight: number }[];
  }[];
}

/**
 * Every committed forward action against the listener rules forwarding to exactly its target
 * groups: verified when each such rule carries the committed weights; waiting, saying what the ALB
 * shows against what was committed, when one differs, a target group is missing or no rule forwards there.
 */
export function judgeWeights(ing: AlbIngress, alb: AlbShown): VerifyResult {
  const problems: string[] = [];
  const fine: string[] = [];
  for (const a of ing.actions) {
    const committed = a.targetGroups.map((g) => `${g.service} ${g.weight}`).join(', ');
    const missing = a.targetGroups.filter((g) => !alb.targetGroups.has(g.resource));
    if (missing.length > 0) {
      problems.push(
        `ALB ${alb.name} has no target group for ${missing.map((g) => g.resource).join(', ')} (committed ${committed})`,
      );
      continue;
    }
    const arnOf = new Map(a.targetGroups.map((g) => [alb.targetGroups.get(g.resource)!, g]));
    const rules = alb.forwards.filter(
      (f) => f.targetGroups.length === arnOf.size && f.targetGroups.every((t) => arnOf.has(t.arn)),
    );
    if (rules.length === 0) {
      problems.push(
        `ALB ${alb.name}: no listener rule forwards to ${a.targetGroups.map((g) => g.service).join(' and ')} (committed ${committed})`,
      );
      continue;
    }
    for (const r of rules) {
      const shown = r.targetGroups.map((t) => `${arnOf.get(t.arn)!.service} ${t.weight}`).join(', ');
      const same = r.targetGroups.every((t) => arnOf.get(t.arn)!.weight === t.weight);
      if (same) fine.push(`${r.where}: ${shown}`);
      else problems.push(`ALB ${alb.name} ${r.where} shows ${shown}; committed ${committed}`);
    }
  }
  return problems.length > 0
    ? { state: 'waiting', detail: `Ingress ${ing.namespace}/${ing.name}: ${problems.join('; ')}` }
    : { state: 'verified', detail: `ALB ${alb.name} forwards as committed (${fine.join('; ')})` };
}

/** Every ready endpoint of the Service registered in its target group (Argo's VerifyTargetGroupBinding). */
export function judgeTargets(b: Backend, ready: readonly string[], registered: readonly string[]): VerifyResult {
  if (ready.length === 0) return { state: 'waiting', detail: `Service ${b.service} has no ready endpoint` };
  const have = new Set(registered);
  const missing = ready.filter((ip) => !have.has(ip));
  if (missing.length > 0)
    return {
      state: 'waiting',
      detail: `target group ${b.resource} lacks ${missing.length} of ${ready.length} ready endpoints of Service ${b.service}: ${missing.join(', ')}`,
    };
  return {
    state: 'verified',
    detail: `target group ${b.resource} holds all ${ready.length} ready endpoints of Service ${b.service}`,
  };
}

/** Several results as one: waiting when any waits. */
export function combineResults(parts: readonly VerifyResult[]): VerifyResult | undefined {
  if (parts.length === 0) return undefined;
  const waiting = parts.filter((p) => p.state === 'waiting');
  return waiting.length > 0
    ? { state: 'waiting', detail: waiting.map((p) => p.detail).join('; ') }
    : { state: 'verified', detail: parts.map((p) => p.detail).join('; ') };
}

/** Each workload of a set of objects: its replicas (absent: 1, as Kubernetes defaults it) and its pod template. */
export function workloadPods(objects: readonly KubeObject[]): Map<string, { replicas: number; template: string }> {
  const kinds = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'CloneSet']);
  const out = new Map<string, { replicas: number; template: string }>();
  for (const o of objects)
    if (kinds.has(o.kind)) {
      const spec = isObject(o.spec) ? o.spec : {};
      out.set(`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, {
        replicas: typeof spec.replicas === 'number' ? spec.replicas : 1,
        template: JSON.stringify(spec.template ?? null),
      });
    }
  return out;
}

type Pods = ReadonlyMap<string, { readonly replicas: number; readonly template: string }>;

/**
 * Whether going from `before` to `after` ends pods that run now: a workload removed, its replicas
 * lowered, or its pod template changed (a rolling update replaces every pod, as a blue-green
 * promotion does to the old version).
 */
export function endsPods(before: Pods, after: Pods): boolean {
  return [...before].some(([k, b]) => {
    const a = after.get(k);
    return b.replicas > 0 && (!a || a.replicas < b.replicas || a.template !== b.template);
  });
}
