import { isObject, KubeObject } from '../../src/model/kube';
import type { SourceObject } from '../../src/model/resource-set';
import type { GeneratorContext } from '../../src/contract/generator';

/** Argo `trafficRouting.traefik`, as written. */
export interface TraefikOptions {
  readonly weightedTraefikServiceName: string;
}

export type Ctx = GeneratorContext<TraefikOptions>;
export type Json = Record<string, unknown>;

/** Names the app and rollout at the start of a message. */
export const where = (ctx: Ctx): string => `app ${ctx.app}, rollout ${ctx.rollout.name}`;

export { default as optionsSchema } from './options.schema.json';

/** Traefik v3 serves traefik.io; v2 traefik.containo.us (Argo's `--traefik-api-group`). Both are read. */
export const TRAEFIK_GROUPS = ['traefik.io', 'traefik.containo.us'];

export const isTraefik = (o: KubeObject, kind: string): boolean =>
  o.kind === kind && TRAEFIK_GROUPS.includes(o.apiVersion.split('/')[0]);

export const specOf = (o: KubeObject): Json => (isObject(o.spec) ? o.spec : {});
export const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** A service reference names a Kubernetes Service unless its kind says TraefikService. */
export const isServiceRef = (ref: Json, name: string): boolean =>
  ref.name === name && (ref.kind === undefined || ref.kind === 'Service');

export function findWeighted(ctx: Ctx): SourceObject | undefined {
  const found = ctx.resources.find('TraefikService', ctx.options.weightedTraefikServiceName, ctx.rollout.namespace);
  return found && isTraefik(found.object, 'TraefikService') ? found : undefined;
}

/** The user's mirroring TraefikService whose main service is the weighted one: where a mirror goes. */
export function findMirroring(ctx: Ctx): SourceObject | undefined {
  return ctx.resources.items.find((i) => {
    const m = specOf(i.object).mirroring;
    return (
      isTraefik(i.object, 'TraefikService') &&
      isObject(m) &&
      m.name === ctx.options.weightedTraefikServiceName &&
      m.kind === 'TraefikService'
    );
  });
}
