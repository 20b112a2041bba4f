import { percentOf } from '../_kit/weight-only';
import { cloneJson, isObject, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import { Ctx, findMirroring, findWeighted, isServiceRef, Json, listOf, specOf } from './options';
import { stepWeights, writtenWeight } from './weights';

/**
 * The weighted TraefikService with the canary entry at W and the stable entry at 100 - W (as Argo
 * sets them); other entries keep the share they have as written (weights.ts). The canary entry is added after the stable one when the
 * source has none, and while nothing goes to the canary it is dropped, unless the user wrote both
 * it and the canary Service: Traefik refuses a TraefikService naming a missing Service. An active
 * mirror route adds the canary Service to the mirrors of the user's mirroring TraefikService.
 */
export function render(ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const weighted = findWeighted(ctx)?.object;
  if (!weighted) throw new Error(`TraefikService "${ctx.options.weightedTraefikServiceName}" not found`);
  const canary = percentOf(traffic);
  const keepIdle = ctx.resources.find('Service', ctx.canaryService, ctx.rollout.namespace) !== undefined;
  const spec = specOf(weighted);
  const services = weigh(listOf(isObject(spec.weighted) ? spec.weighted.services : []), ctx, canary, keepIdle);
  const out: KubeObject[] = [{ ...weighted, spec: { ...spec, weighted: { ...(spec.weighted as Json), services } } }];
  const mirroring = findMirroring(ctx)?.object;
  if (mirroring) out.push(mirrored(mirroring, ctx, traffic, services));
  return out;
}

function weigh(entries: readonly Json[], ctx: Ctx, canary: number, keepIdle: boolean): Json[] {
  const stable = entries.find((e) => isServiceRef(e, ctx.stableService));
  const hasCanary = entries.some((e) => isServiceRef(e, ctx.canaryService));
  const others = entries.filter((e) => e !== stable && !isServiceRef(e, ctx.canaryService));
  const weights = stepWeights(stable ? writtenWeight(stable) : 1, others, canary);
  const out: Json[] = [];
  for (const e of entries) {
    if (isServiceRef(e, ctx.canaryService)) {
      if (canary > 0 || keepIdle) out.push({ ...cloneJson(e), weight: weights.canary });
      continue;
    }
    out.push({ ...cloneJson(e), weight: e === stable ? weights.stable : weights.other(e) });
    if (e === stable && !hasCanary && canary > 0)
      out.push({ ...cloneJson(e), name: ctx.canaryService, weight: weights.canary });
  }
  return out;
}

/** Mirrors of the canary Service are rollgen's: dropped, then added back at the step's percentage. */
function mirrored(mirroring: KubeObject, ctx: Ctx, traffic: TrafficState, services: readonly Json[]): KubeObject {
  const spec = specOf(mirroring);
  const m = spec.mirroring as Json;
  const mirrors = listOf(m.mirrors).filter((x) => !isServiceRef(x, ctx.canaryService));
  const stable = services.find((e) => isServiceRef(e, ctx.stableService)) ?? {};
  for (const route of traffic.mirrorRoutes) {
    mirrors.push({
      name: ctx.canaryService,
      ...(stable.port !== undefined ? { port: stable.port } : {}),
      percent: route.percentage,
    });
  }
  const { mirrors: _old, ...rest } = m;
  return { ...mirroring, spec: { ...spec, mirroring: { ...rest, ...(mirrors.length > 0 ? { mirrors } : {}) } } };
}
