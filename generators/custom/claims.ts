import type { GeneratorContext, RouteClaim } from '../../src/contract/generator';
import { CustomOptions, describeKind, groupOf } from './options';
import { findRef } from './render';

/**
 * Each referenced object, whole: its template renders all of it, so two rollouts (in one app or
 * across apps) writing one object would overwrite each other's canary routes.
 */
export function claims(ctx: GeneratorContext<CustomOptions>): RouteClaim[] {
  return ctx.options.refs.flatMap((ref) => {
    const object = findRef(ctx.resources, ref, ctx.rollout.namespace);
    if (!object) return [];
    const kind = describeKind(ref.kind, groupOf(ref.apiVersion));
    const namespace = object.metadata.namespace ?? ctx.rollout.namespace ?? '';
    const source = ctx.resources.find(ref.kind, ref.name, ctx.rollout.namespace);
    return [
      {
        key: `custom:${kind}:${namespace}/${ref.name}`,
        description: `${kind} "${ref.name}" (rendered whole by its RouteTemplate)`,
        origin: source?.origin ?? ctx.optionsOrigin,
      },
    ];
  });
}
