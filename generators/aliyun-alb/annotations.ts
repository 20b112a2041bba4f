import type { KubeObject } from '../../src/model/kube';

/** Every ALB Ingress annotation lives under this domain. */
export const ALB = 'alb.ingress.kubernetes.io';
export const key = (name: string): string => `${ALB}/${name}`;

export const CANARY = key('canary');
export const CANARY_WEIGHT = key('canary-weight');
export const CANARY_BY_HEADER = key('canary-by-header');
export const CANARY_BY_HEADER_VALUE = key('canary-by-header-value');
export const CANARY_BY_COOKIE = key('canary-by-cookie');
export const ORDER = key('order');
export const LISTEN_PORTS = key('listen-ports');

/** ALB forwarding-rule priority: 1 (first) to 1000; an Ingress without the annotation has 10. */
export const MIN_ORDER = 1;
export const MAX_ORDER = 1000;
export const DEFAULT_ORDER = 10;

/**
 * The canary Ingress present in every canary step: it carries the weight, or the header/cookie
 * rules when the step has no weight.
 */
export function canaryName(stable: string): string {
  return `${stable}-canary`;
}

/** The second canary Ingress, only in steps with a header/cookie match AND a weight (ALB cannot combine them). */
export function headerCanaryName(stable: string): string {
  return `${stable}-canary-header`;
}

export function isAlbCanary(obj: KubeObject): boolean {
  return obj.metadata.annotations?.[CANARY] === 'true';
}

/** Keys rollgen owns on a canary Ingress: every `canary*` key and the order. */
export function isOwnedKey(k: string): boolean {
  return k.startsWith(CANARY) || k === ORDER;
}

/** The Ingress's order: its annotation, else the ALB default; undefined when written but not an integer in 1-1000. */
export function readOrder(obj: KubeObject): number | undefined {
  const raw = obj.metadata.annotations?.[ORDER];
  if (raw === undefined) return DEFAULT_ORDER;
  const n = /^\s*\d+\s*$/.test(raw) ? Number.parseInt(raw, 10) : NaN;
  return Number.isInteger(n) && n >= MIN_ORDER && n <= MAX_ORDER ? n : undefined;
}
