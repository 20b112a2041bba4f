import { isObject, KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { evaluateConditions } from './conditions';
import { albPaths, backendOf, ingressSpec } from './ingress';
import { hostMatches, pathMatches, requestPath } from './match';
import { USE_ANNOTATION } from './options';

/**
 * Evaluates a request as an ALB listener would after the AWS Load Balancer Controller built its
 * rules: ALB Ingresses by `group.order` then namespace/name, each Ingress's paths in document
 * order (that is their rule priority), first host+path+conditions match wins. A `use-annotation`
 * backend resolves to the forward action `actions.<name>`, split by target-group weight.
 * Undefined when no rule matches and there is no default backend (ALB answers 404).
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const path = requestPath(request);
  for (const ingress of albIngresses(objects)) {
    for (const p of albPaths(ingress)) {
      if (!hostMatches(p.host, request.host) || !pathMatches(p, path) || p.service === undefined) continue;
      const annotations = ingress.metadata.annotations ?? {};
      const conditions = findKey(annotations, 'conditions', p.service);
      const verdict = conditions === undefined ? undefined : evaluateConditions(annotations[conditions], request);
      if (verdict && !verdict.matched) continue;
      const label = `Ingress ${ingress.metadata.name} ${p.host ?? '*'}${p.path ?? ''}${verdict ? ` if ${verdict.why}` : ''}`;
      return backendResult(annotations, p.service, p.port, label);
    }
  }
  return defaultBackend(albIngresses(objects), request);
}

/** Ingresses the ALB controller serves: class `alb`, or any path handing off to an action annotation. */
function albIngresses(objects: readonly KubeObject[]): KubeObject[] {
  const alb = objects.filter((o) => o.kind === 'Ingress' && isAlb(o));
  const order = (o: KubeObject): number =>
    Number.parseInt(valueOfKey(o.metadata.annotations ?? {}, '/group.order') ?? '0', 10) || 0;
  const id = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  return alb.sort((a, b) => order(a) - order(b) || id(a).localeCompare(id(b), 'en'));
}

function isAlb(o: KubeObject): boolean {
  const klass = ingressSpec(o).ingressClassName ?? o.metadata.annotations?.['kubernetes.io/ingress.class'];
  return klass === 'alb' || albPaths(o).some((p) => p.port === USE_ANNOTATION);
}

function backendResult(
  annotations: Readonly<Record<string, string>>,
  service: string,
  port: string | undefined,
  label: string,
): SimResult | undefined {
  if (port !== USE_ANNOTATION) return { backends: [{ service, share: 1 }], rule: `${label} -> ${service}` };
  const key = findKey(annotations, 'actions', service);
  if (key === undefined) return undefined; // the controller refuses the Ingress: no action for a use-annotation backend
  const groups = forwardGroups(annotations[key]);
  const total = groups.reduce((n, g) => n + g.weight, 0);
  if (total <= 0) return undefined;
  const shares = new Map<string, number>();
  for (const g of groups) if (g.weight > 0) shares.set(g.service, (shares.get(g.service) ?? 0) + g.weight / total);
  const split = groups.map((g) => `${g.service} ${g.weight}`).join(', ');
  return {
    backends: [...shares].map(([s, share]) => ({ service: s, share })),
    rule: `${label} -> action ${service} (${split})`,
  };
}

/** Target groups of a forward action; a lone group without Weight takes everything. Other action types route nowhere here. */
export function forwardGroups(raw: string): { service: string; weight: number }[] {
  let action: unknown;
  try {
    action = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!isObject(action) || action.Type !== 'forward') return [];
  if (typeof action.TargetGroupArn === 'string') return [{ service: action.TargetGroupArn, weight: 1 }];
  const config = isObject(action.ForwardConfig) ? action.ForwardConfig : {};
  const groups = Array.isArray(config.TargetGroups) ? config.TargetGroups.filter(isObject) : [];
  return groups.map((g) => ({
    service: typeof g.ServiceName === 'string' ? g.ServiceName : String(g.TargetGroupArn ?? '<unknown>'),
    weight: typeof g.Weight === 'number' ? g.Weight : groups.length === 1 ? 1 : 0,
  }));
}

/** `<prefix>/<kind>.<name>` whatever the prefix (the simulator does not know the rollout's annotationPrefix). */
function findKey(
  annotations: Readonly<Record<string, string>>,
  kind: 'actions' | 'conditions',
  name: string,
): string | undefined {
  return Object.keys(annotations).find((k) => k.endsWith(`/${kind}.${name}`));
}

function valueOfKey(annotations: Readonly<Record<string, string>>, suffix: string): string | undefined {
  const key = Object.keys(annotations).find((k) => k.endsWith(suffix));
  return key === undefined ? undefined : annotations[key];
}

function defaultBackend(ingresses: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  for (const ingress of ingresses) {
    const backend = backendOf(ingressSpec(ingress).defaultBackend);
    if (backend.service === undefined) continue;
    return backendResult(
      ingress.metadata.annotations ?? {},
      backend.service,
      backend.port,
      `Ingress ${ingress.metadata.name} default backend (${request.path})`,
    );
  }
  return undefined;
}
