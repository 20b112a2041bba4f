import { Diagnostic } from '../diagnostics';
import { ParsedDocument } from '../yaml/parse';
import { providerFromKruiseRouting } from './providers';
import { matchesOverTraffic } from './kruise';
import { RolloutSpec, StepSpec } from './types';
import { arr, headerModifier, kruiseMatch, num, obj, str } from './values';

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

export function normalizeTrafficRouting(doc: ParsedDocument): { routing: SharedRouting; diagnostics: Diagnostic[] } {
  const root = obj(doc.value);
  const meta = obj(root.metadata);
  const spec = obj(root.spec);
  const strategy = obj(spec.strategy);
  const diagnostics: Diagnostic[] = [];
  // Kruise reads objectRef[0] only.
  const ref = obj(arr(spec.objectRef)[0]);
  const providers = providerFromKruiseRouting(doc, ref, ['spec', 'objectRef', 0], diagnostics);
  const service = str(ref.service) ?? '';
  const name = str(meta.name) ?? '';
  const modifier = headerModifier(strategy.requestHeaderModifier);
  const weight = num(strategy.weight);
  const step: StepSpec = {
    origin: doc.locate(['spec', 'strategy']),
    ...(weight !== undefined ? { weight } : {}),
    matches: arr(strategy.matches).map(kruiseMatch),
    headerRoutes: [],
    mirrorRoutes: [],
    ...(modifier ? { requestHeaderModifier: modifier } : {}),
    pause: { kind: 'none' },
  };
  const rollout: RolloutSpec = {
    format: 'kruise-v1alpha1',
    name,
    ...(str(meta.namespace) ? { namespace: str(meta.namespace) } : {}),
    origin: doc.origin,
    workload: { kind: 'Deployment', name: '' },
    style: 'canary',
    steps: matchesOverTraffic([step], providers, diagnostics),
    traffic: { stableService: service, canaryService: service, generateCanaryService: false, weightTotal: 100, providers, managedRoutes: [] },
    canaryPodMetadata: { labels: {}, annotations: {} },
    stablePodMetadata: { labels: {}, annotations: {} },
  };
  return { routing: { name, ...(rollout.namespace ? { namespace: rollout.namespace } : {}), rollout }, diagnostics };
}
