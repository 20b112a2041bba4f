import { isObject, KubeObject } from '../../src/model/kube';
import type { SourceObject } from '../../src/model/resource-set';
import type { GeneratorContext } from '../../src/contract/generator';

/** Argo `trafficRouting.apisix`, as written. */
export interface ApisixOptions {
  readonly route: { readonly name: string; readonly rules?: readonly string[] };
}

export type Ctx = GeneratorContext<ApisixOptions>;
export type Json = Record<string, unknown>;

export { default as optionsSchema } from './options.schema.json';

export const isApisixRoute = (o: KubeObject): boolean =>
  o.kind === 'ApisixRoute' && o.apiVersion.split('/')[0] === 'apisix.apache.org';

export const specOf = (o: KubeObject): Json => (isObject(o.spec) ? o.spec : {});
export const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
export const httpRules = (o: KubeObject): Json[] => listOf(specOf(o).http);

/** The rules Argo weights: those named in `rules`, else the one named like the route. */
export const targetRules = (ctx: Ctx): readonly string[] => ctx.options.route.rules ?? [ctx.options.route.name];

export function findRoute(ctx: Ctx): SourceObject | undefined {
  const found = ctx.resources.find('ApisixRoute', ctx.options.route.name, ctx.rollout.namespace);
  return found && isApisixRoute(found.object) ? found : undefined;
}
