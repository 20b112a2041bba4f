import { isObject, KubeObject } from '../../src/model/kube';
import type { ResourceSet, SourceObject } from '../../src/model/resource-set';

/**
 * HTTPRoute API versions rollgen renders. v1alpha2 (which Kruise's Gateway API support was written
 * against) has the same rules, matches, backendRefs and filters rollgen writes; the version is kept.
 */
export const HTTPROUTE_VERSIONS = [
  'gateway.networking.k8s.io/v1',
  'gateway.networking.k8s.io/v1beta1',
  'gateway.networking.k8s.io/v1alpha2',
];

export type Json = Record<string, unknown>;

export function routeSpec(route: KubeObject): Json {
  return isObject(route.spec) ? route.spec : {};
}

export function routeRules(route: KubeObject): Json[] {
  const rules = routeSpec(route).rules;
  return Array.isArray(rules) ? rules.filter(isObject) : [];
}

export function backendRefs(rule: Json): Json[] {
  return Array.isArray(rule.backendRefs) ? rule.backendRefs.filter(isObject) : [];
}

/** A rule without `matches` is defaulted by the apiserver to one PathPrefix `/` match; rollgen reads it the same way. */
export function ruleMatches(rule: Json): Json[] {
  const matches = Array.isArray(rule.matches) ? rule.matches.filter(isObject) : [];
  return matches.length > 0 ? matches : [{ path: { type: 'PathPrefix', value: '/' } }];
}

/**
 * The Service a backendRef names, or undefined for another kind. A missing `kind` means Service
 * and a missing `group` the core group, as the apiserver defaults them (Kruise at HEAD skips refs
 * without `kind`; rollgen reads git YAML, where the defaults are not written out).
 */
export function refService(
  ref: Json,
  routeNamespace: string | undefined,
): { name: string; namespace?: string } | undefined {
  const kind = ref.kind ?? 'Service';
  const group = ref.group ?? '';
  if (kind !== 'Service' || group !== '' || typeof ref.name !== 'string') return undefined;
  const namespace = typeof ref.namespace === 'string' ? ref.namespace : routeNamespace;
  return { name: ref.name, ...(namespace !== undefined ? { namespace } : {}) };
}

/** True when the ref points at Service `name` in the route's own namespace. */
export function refersTo(ref: Json, service: string, routeNamespace: string | undefined): boolean {
  const svc = refService(ref, routeNamespace);
  return svc !== undefined && svc.name === service && svc.namespace === routeNamespace;
}

/** A backendRef's weight: default 1 (Gateway API), negative or non-integer read as written. */
export function refWeight(ref: Json): number {
  return typeof ref.weight === 'number' ? ref.weight : 1;
}

/** The label a simulated backend carries: the Service name, or `Kind/name` for other kinds. */
export function refLabel(ref: Json): string {
  const kind = typeof ref.kind === 'string' ? ref.kind : 'Service';
  const name = typeof ref.name === 'string' ? ref.name : '<unnamed>';
  return kind === 'Service' && (ref.group ?? '') === '' ? name : `${kind}/${name}`;
}

export function findRoute(resources: ResourceSet, name: string, namespace?: string): SourceObject | undefined {
  return resources.find('HTTPRoute', name, namespace);
}
