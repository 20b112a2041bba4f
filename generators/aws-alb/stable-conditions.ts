import { isObject, KubeObject } from '../../src/model/kube';
import { actionName, AlbOptions, conditionKey } from './options';

/**
 * The stable action's own `conditions.<action>` on an Ingress (a source-ip limit, a method): an ALB
 * rule ANDs its conditions, and a header route is a rule of its own ahead of the action's path, so
 * rollgen copies them onto every header route; without them a request sending the header would pass
 * a limit the stable path keeps. `unreadable` when the annotation is no JSON list of conditions.
 */
export function stableConditions(
  ingress: KubeObject,
  options: AlbOptions,
  stableService: string,
): readonly Record<string, unknown>[] | 'unreadable' {
  const raw = ingress.metadata.annotations?.[stableConditionKey(options, stableService)];
  if (raw === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) && parsed.every(isObject) ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

export function stableConditionKey(options: AlbOptions, stableService: string): string {
  return conditionKey(options.annotationPrefix, actionName(options, stableService));
}

/** Condition values a list counts against ALB's quota per rule: each condition's `values`. */
export function conditionValueCount(conditions: readonly Record<string, unknown>[]): number {
  return conditions
    .flatMap((c) => Object.values(c).filter(isObject))
    .reduce((n, config) => n + (Array.isArray(config.values) ? config.values.length : 0), 0);
}
