import type { KubeObject } from '../../src/model/kube';
import type { SimRequest, SimResult } from '../../src/contract/generator';
import { IngressPath, ingressClass, ingressPaths } from '../_kit/ingress';
import { hostTier, normalizeHost, pathMatches, headerValue } from '../_kit/ingress-match';
import {
  CANARY_BY_COOKIE,
  CANARY_BY_HEADER,
  CANARY_BY_HEADER_VALUE,
  CANARY_WEIGHT,
  DEFAULT_ORDER,
  isAlbCanary,
  LISTEN_PORTS,
  readOrder,
} from './annotations';
import { listenPorts } from './listener';

/** One forwarding rule of the listener: an Ingress path, with a canary condition on canary Ingresses. */
interface Rule {
  readonly order: number;
  readonly ingress: KubeObject;
  readonly path: IngressPath;
  readonly condition: 'none' | 'header' | 'cookie' | 'weight';
}

/**
 * Evaluates a request as an ALB listener does: every rule of every Ingress, top-down by order
 * (lower first; ties by namespace/name), the first rule whose host, path and condition match
 * decides. A canary Ingress expands to header, then cookie, then weight rules (header > cookie >
 * weight); a weight rule splits between the canary and the production rule for the same host and
 * path. A canary Ingress that shares its order with an Ingress before it on a listener cannot be
 * created (openkruise/rollouts#128), so its rules do not exist. Undefined when no rule matches.
 */
export function simulate(objects: readonly KubeObject[], request: SimRequest): SimResult | undefined {
  const rules = listenerRules(objects);
  const host = normalizeHost(request.host);
  const requestPath = request.path.split(/[?#]/)[0] || '/';
  for (const rule of rules) {
    if (hostTier(rule.path.host, host) === 0 || !pathMatches(rule.path.pathType, rule.path.path, requestPath)) continue;
    const result = decide(rule, rules, request);
    if (result) return result;
  }
  return undefined;
}

function decide(rule: Rule, rules: readonly Rule[], request: SimRequest): SimResult | undefined {
  const a = rule.ingress.metadata.annotations ?? {};
  const service = rule.path.service ?? '<resource backend>';
  const at = `order ${rule.order} Ingress ${rule.ingress.metadata.name}`;
  if (rule.condition === 'none') return { backends: [{ service, share: 1 }], rule: at };
  if (rule.condition === 'header') {
    const name = a[CANARY_BY_HEADER];
    return headerValue(request.headers, name) === a[CANARY_BY_HEADER_VALUE]
      ? { backends: [{ service, share: 1 }], rule: `${at}: canary-by-header ${name}=${a[CANARY_BY_HEADER_VALUE]}` }
      : undefined;
  }
  if (rule.condition === 'cookie') {
    const name = a[CANARY_BY_COOKIE];
    return request.cookies[name] === 'always'
      ? { backends: [{ service, share: 1 }], rule: `${at}: canary-by-cookie ${name}=always` }
      : undefined;
  }
  const production = rules.find(
    (r) => r.condition === 'none' && r.path.host === rule.path.host && r.path.path === rule.path.path,
  );
  const stable = production?.path.service ?? '<resource backend>';
  const weight = Math.min(100, Math.max(0, Number.parseInt(a[CANARY_WEIGHT], 10) || 0));
  const backends = [
    { service: stable, share: (100 - weight) / 100 },
    { service, share: weight / 100 },
  ].filter((b) => b.share > 0);
  return { backends, rule: `${at}: canary-weight ${weight}` };
}

/** Every rule of every Ingress, sorted top-down; canary Ingresses without a production rule or with a taken order left out. */
function listenerRules(objects: readonly KubeObject[]): Rule[] {
  const ingresses = objects
    .filter((o) => o.kind === 'Ingress')
    .map((ingress) => ({ ingress, order: readOrder(ingress) ?? DEFAULT_ORDER }))
    .sort((a, b) => a.order - b.order || nsName(a.ingress).localeCompare(nsName(b.ingress), 'en'));
  const created = ingresses.filter(
    (x, i) =>
      !isAlbCanary(x.ingress) ||
      !ingresses.slice(0, i).some((y) => y.order === x.order && shareListener(x.ingress, y.ingress)),
  );
  const rules = created.flatMap(({ ingress, order }) => ingressRulesOf(ingress, order));
  return rules.filter(
    (r) =>
      r.condition === 'none' ||
      rules.some((p) => p.condition === 'none' && p.path.host === r.path.host && p.path.path === r.path.path),
  );
}

function ingressRulesOf(ingress: KubeObject, order: number): Rule[] {
  const paths = [...ingressPaths(ingress)].sort((a, b) => specificity(b) - specificity(a));
  const a = ingress.metadata.annotations ?? {};
  const conditions: Rule['condition'][] = !isAlbCanary(ingress)
    ? ['none']
    : [
        ...(a[CANARY_BY_HEADER] && a[CANARY_BY_HEADER_VALUE] !== undefined ? ['header' as const] : []),
        ...(a[CANARY_BY_COOKIE] ? ['cookie' as const] : []),
        ...(a[CANARY_WEIGHT] !== undefined ? ['weight' as const] : []),
      ];
  return paths.flatMap((path) => conditions.map((condition) => ({ order, ingress, path, condition })));
}

/** Within one Ingress: Exact before Prefix, longer paths first (Kubernetes Ingress precedence). */
function specificity(p: IngressPath): number {
  return p.path.replace(/\/+$/, '').length * 2 + (p.pathType === 'Exact' ? 1 : 0);
}

function shareListener(a: KubeObject, b: KubeObject): boolean {
  const ports = (o: KubeObject): readonly string[] => {
    const r = listenPorts(o.metadata.annotations?.[LISTEN_PORTS]);
    return 'listeners' in r ? r.listeners : [];
  };
  return ingressClass(a) === ingressClass(b) && ports(a).some((p) => ports(b).includes(p));
}

const nsName = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
