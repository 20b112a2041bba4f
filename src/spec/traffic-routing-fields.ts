import { FieldLedger } from './field-ledger';
import { kruiseRoutingRules } from './kruise-fields';

/** The fields of a Kruise TrafficRouting and how traffic-routing.ts treats each. */
export const TRAFFIC_ROUTING_FIELDS: FieldLedger = {
  title: 'Kruise TrafficRouting (rollouts.kruise.io/v1alpha1)',
  crd: { file: 'kruise-rollouts/rollouts.kruise.io_trafficroutings.yaml', version: 'v1alpha1' },
  rules: [
    { path: 'spec', status: 'honoured' },
    ...kruiseRoutingRules('spec.objectRef'),
    {
      path: 'spec.strategy',
      status: 'honoured',
      subtree: true,
      note: 'weight, matches and requestHeaderModifier are live while any member rollout runs a canary',
    },
  ],
};
