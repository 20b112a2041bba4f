import { isObject, KubeObject } from '../../src/model/kube';
import type { SourceObject } from '../../src/model/resource-set';
import type { GeneratorContext } from '../../src/contract/generator';

/** Argo `trafficRouting.ambassador`, as written. */
export interface AmbassadorOptions {
  readonly mappings: readonly string[];
}

export type Ctx = GeneratorContext<AmbassadorOptions>;
export type Json = Record<string, unknown>;

export { default as optionsSchema } from './options.schema.json';

/** Ambassador and Emissary: getambassador.io v2, v3alpha1 (and x.getambassador.io), whatever the version. */
export const isMapping = (o: KubeObject): boolean =>
  o.kind === 'Mapping' && /(^|\.)getambassador\.io$/.test(o.apiVersion.split('/')[0]);

export const specOf = (o: KubeObject): Json => (isObject(o.spec) ? o.spec : {});

/** PRODUCT.md naming rule: the canary copy of `<mapping>` is `<mapping>-canary` (as Argo names it). */
export const canaryMappingName = (mapping: string): string => `${mapping}-canary`;

export function findMapping(ctx: Ctx, name: string): SourceObject | undefined {
  const found = ctx.resources.find('Mapping', name, ctx.rollout.namespace);
  return found && isMapping(found.object) ? found : undefined;
}

/** `svc`, `svc.ns`, `svc:8080`, `http://svc.ns.svc.cluster.local:80`: the Service name and the rest. */
export function splitServiceUrl(url: string): { before: string; service: string; after: string } {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)?([^.:/]*)(.*)$/i.exec(url) ?? ['', '', url, ''];
  return { before: m[1] ?? '', service: m[2] ?? '', after: m[3] ?? '' };
}
