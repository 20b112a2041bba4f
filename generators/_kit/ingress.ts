import { isObject, KubeObject } from '../../src/model/kube';
import type { ResourceSet, SourceObject } from '../../src/model/resource-set';

/** One `spec.rules[rule].http.paths[index]` entry of a networking.k8s.io/v1 Ingress, read defensively. */
export interface IngressPath {
  readonly rule: number;
  readonly index: number;
  /** Lower-cased; undefined when the rule has no host (matches any host). */
  readonly host?: string;
  readonly path: string;
  readonly pathType: string;
  /** `backend.service.name`; undefined for a resource backend. */
  readonly service?: string;
  /** The path entry as written. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export function ingressSpec(obj: KubeObject): Readonly<Record<string, unknown>> {
  return isObject(obj.spec) ? obj.spec : {};
}

export function ingressRules(obj: KubeObject): readonly Readonly<Record<string, unknown>>[] {
  const rules = ingressSpec(obj).rules;
  return Array.isArray(rules) ? rules.filter(isObject) : [];
}

export function rulePaths(rule: Readonly<Record<string, unknown>>): readonly Readonly<Record<string, unknown>>[] {
  const paths = isObject(rule.http) ? rule.http.paths : undefined;
  return Array.isArray(paths) ? paths.filter(isObject) : [];
}

export function backendService(path: Readonly<Record<string, unknown>>): string | undefined {
  const backend = isObject(path.backend) ? path.backend : {};
  const service = isObject(backend.service) ? backend.service : {};
  return typeof service.name === 'string' ? service.name : undefined;
}

/** Every path of every rule, in document order. */
export function ingressPaths(obj: KubeObject): IngressPath[] {
  const out: IngressPath[] = [];
  ingressRules(obj).forEach((rule, ruleIndex) => {
    const host = typeof rule.host === 'string' && rule.host !== '' ? rule.host.toLowerCase() : undefined;
    rulePaths(rule).forEach((raw, index) => {
      const service = backendService(raw);
      out.push({
        rule: ruleIndex,
        index,
        ...(host !== undefined ? { host } : {}),
        path: typeof raw.path === 'string' && raw.path !== '' ? raw.path : '/',
        pathType: typeof raw.pathType === 'string' ? raw.pathType : 'ImplementationSpecific',
        ...(service !== undefined ? { service } : {}),
        raw,
      });
    });
  });
  return out;
}

/** `spec.ingressClassName`, else the legacy `kubernetes.io/ingress.class` annotation. */
export function ingressClass(obj: KubeObject): string | undefined {
  const name = ingressSpec(obj).ingressClassName;
  if (typeof name === 'string' && name !== '') return name;
  return obj.metadata.annotations?.['kubernetes.io/ingress.class'];
}

/** The annotation prefix of a canary Ingress (`<prefix>/canary: "true"`), or undefined for a non-canary one. */
export function canaryPrefix(obj: KubeObject): string | undefined {
  for (const [key, value] of Object.entries(obj.metadata.annotations ?? {})) {
    if (key.endsWith('/canary') && value === 'true') return key.slice(0, -'/canary'.length);
  }
  return undefined;
}

export function isCanaryIngress(obj: KubeObject, prefix: string): boolean {
  return obj.metadata.annotations?.[`${prefix}/canary`] === 'true';
}

/** The stable Ingress `name` in the rollout's namespace (the ResourceSet falls back to its default). */
export function findIngress(resources: ResourceSet, name: string, namespace?: string): SourceObject | undefined {
  return resources.find('Ingress', name, namespace);
}
