import type { ProviderInputs } from '../contract/inputs';
import { Diagnostic } from '../diagnostics';
import { ParsedDocument } from '../yaml/parse';
import { providerFromKruiseRouting } from './providers';
import { kruiseStep, matchesOverTraffic } from './kruise';
import { RolloutSpec } from '../model/rollout';
import { arr, obj, str } from '../model/values';

/**
 * A Kruise TrafficRouting: one routing rule shared by every Rollout that references it (the
 * end-to-end canary). Its strategy is on while any member has a live canary; its routes are
 * rendered once, not per member. Plain data.
 */
export interface SharedRouting {
  readonly name: string;
  readonly namespace?: string;
  /** Normalized like a rollout so generators need no special case: one step holding the strategy, stable and canary Service equal ("only traffic routing"). */
  readonly rollout: RolloutSpec;
}

export function normalizeTrafficRouting(
  doc: ParsedDocument,
  inputs: ProviderInputs,
): { routing: SharedRouting; diagnostics: Diagnostic[] } {
  const root = obj(doc.value);
  const meta = obj(root.metadata);
  const spec = obj(root.spec);
  const diagnostics: Diagnostic[] = [];
  // Kruise reads objectRef[0] only.
  const ref = obj(arr(spec.objectRef)[0]);
  const providers = providerFromKruiseRouting(doc, ref, ['spec', 'objectRef', 0], diagnostics, inputs);
  const service = str(ref.service) ?? '';
  const name = str(meta.name) ?? '';
  // The strategy has a v1alpha1 step's traffic fields (weight, matches, requestHeaderModifier).
  const step = kruiseStep(doc, spec.strategy, ['spec', 'strategy'], false);
  const rollout: RolloutSpec = {
    format: 'kruise-v1alpha1',
    name,
    ...(str(meta.namespace) ? { namespace: str(meta.namespace) } : {}),
    origin: doc.origin,
    workload: { kind: 'Deployment', name: '' },
    style: 'canary',
    steps: matchesOverTraffic([step], providers, diagnostics),
    traffic: {
      stableService: service,
      canaryService: service,
      generateCanaryService: false,
      weightTotal: 100,
      providers,
      managedRoutes: [],
    },
    canaryPodMetadata: { labels: {}, annotations: {} },
    stablePodMetadata: { labels: {}, annotations: {} },
  };
  return { routing: { name, ...(rollout.namespace ? { namespace: rollout.namespace } : {}), rollout }, diagnostics };
}
