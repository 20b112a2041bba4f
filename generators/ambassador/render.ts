import { percentOf } from '../_kit/weight-only';
import { cloneJson, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import { canaryMappingName, Ctx, findMapping, specOf, splitServiceUrl } from './options';

/**
 * One `<mapping>-canary` per base Mapping while the canary gets a share: the base spec with the
 * Service part of `service` pointed at the canary Service and `weight: W`. Ambassador groups
 * Mappings with the same prefix and host, sends W % to the weighted one and the rest to the base.
 * At weight 0 the copy is absent, so the base Mapping takes everything; the base is never changed.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const canary = percentOf(traffic);
  if (canary <= 0) return [];
  return ctx.options.mappings.map((name) => {
    const base = findMapping(ctx, name)?.object;
    if (!base) throw new Error(`Mapping "${name}" not found`);
    const spec = cloneJson(specOf(base));
    const url = splitServiceUrl(String(spec.service ?? ''));
    const metadata = {
      name: canaryMappingName(name),
      ...(base.metadata.namespace !== undefined ? { namespace: base.metadata.namespace } : {}),
    };
    const service = `${url.before}${ctx.canaryService}${url.after}`;
    return { apiVersion: base.apiVersion, kind: base.kind, metadata, spec: { ...spec, service, weight: canary } };
  });
}
