import { KubeMetadata, KubeObject } from '../../src/model/kube';
import type { TrafficState } from '../../src/model/plan';
import { findIngress } from '../_kit/ingress';
import { canaryIngressName, canaryIngressOf } from '../_kit/canary-ingress';
import type { GeneratorContext } from '../../src/contract/generator';
import {
  headerControlAnnotations,
  isOwnedKey,
  matchAnnotations,
  subsetAnnotations,
  weightAnnotations,
} from './annotations';
import { unsupportedFeatures } from './features';
import { Flavour } from './flavour';
import { HigressOptions, weightIngressName } from './options';

type Ctx = GeneratorContext<HigressOptions>;
type Annotations = Record<string, string>;

/**
 * Per stable Ingress: `<ingress>-canary` holds the step's match route, or its weight when the step
 * has no match; a step with both adds `<ingress>-canary-weight` for the weight. Nothing in the
 * stable-only state, so every canary Ingress is absent. The stable Ingress is never returned.
 */
export function render(f: Flavour, ctx: Ctx, traffic: TrafficState): KubeObject[] {
  const unsupported = unsupportedFeatures(f, traffic);
  if (unsupported.length > 0) throw new Error(`${f.id} cannot express this traffic state: ${unsupported.join('; ')}`);
  const slots = canarySlots(f, traffic);
  return ctx.options.ingresses.flatMap((name) => {
    const source = findIngress(ctx.resources, name, ctx.rollout.namespace);
    if (!source) throw new Error(`Ingress "${name}" not found in the app's manifests`);
    return slots.map((slot) => canaryIngress(f, ctx, source.object, slot));
  });
}

interface Slot {
  readonly name: (stable: string) => string;
  readonly annotations: Annotations;
}

/** Which canary Ingresses the state needs, each with its step keys (header control on each: it applies per route). */
export function canarySlots(f: Flavour, traffic: TrafficState): Slot[] {
  const control = headerControlAnnotations(f, traffic.requestHeaderModifier);
  const hasMatch = traffic.matches.length > 0;
  const slots: Slot[] = [];
  if (hasMatch) slots.push({ name: canaryIngressName, annotations: { ...matchAnnotations(f, traffic), ...control } });
  if (traffic.weight > 0) {
    slots.push({
      name: hasMatch ? weightIngressName : canaryIngressName,
      annotations: { ...weightAnnotations(traffic), ...control },
    });
  }
  return slots;
}

function canaryIngress(f: Flavour, ctx: Ctx, stable: KubeObject, slot: Slot): KubeObject {
  return canaryIngressOf(stable, ctx.stableService, ctx.canaryService, canaryMetadata(f, stable, slot));
}

/** The stable Ingress's annotations minus rollgen's canary keys, then the step's keys (the core sorts the keys). */
function canaryMetadata(f: Flavour, stable: KubeObject, slot: Slot): KubeMetadata {
  const meta = stable.metadata;
  const own = meta.annotations ?? {};
  const kept = Object.entries(own).filter(([k]) => !isOwnedKey(f, k));
  const merged: Annotations = { ...Object.fromEntries(kept), ...subsetAnnotations(f, own), ...slot.annotations };
  return {
    name: slot.name(meta.name),
    ...(meta.namespace !== undefined ? { namespace: meta.namespace } : {}),
    ...(meta.labels !== undefined ? { labels: { ...meta.labels } } : {}),
    annotations: Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, String(v)])),
  };
}
