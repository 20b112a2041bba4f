import { ANALYSIS_TEMPLATE_FIELDS, CLUSTER_ANALYSIS_TEMPLATE_FIELDS } from './analysis-fields';
import type { ProviderInputs } from '../contract/inputs';
import { argoRolloutFields } from './argo-fields';
import { FieldLedger } from './field-ledger';
import { KRUISE_V1ALPHA1_FIELDS, KRUISE_V1BETA1_FIELDS } from './kruise-fields';
import { TRAFFIC_ROUTING_FIELDS } from './traffic-routing-fields';
import { SchemaId } from './validate-schema';

/** The ledger of a rollout format rollgen reads; the Argo one depends on the providers rollgen has. */
export function rolloutLedger(schema: SchemaId, inputs: ProviderInputs): FieldLedger | undefined {
  if (schema === 'argo-rollout') return argoRolloutFields(inputs);
  if (schema === 'kruise-rollout-v1alpha1') return KRUISE_V1ALPHA1_FIELDS;
  if (schema === 'kruise-rollout-v1beta1') return KRUISE_V1BETA1_FIELDS;
  return undefined;
}

/** Every ledger, in the order the docs list them; the meta-test walks each one's CRD. */
export const allLedgers = (inputs: ProviderInputs): readonly FieldLedger[] => [
  argoRolloutFields(inputs),
  ANALYSIS_TEMPLATE_FIELDS,
  CLUSTER_ANALYSIS_TEMPLATE_FIELDS,
  KRUISE_V1ALPHA1_FIELDS,
  KRUISE_V1BETA1_FIELDS,
  TRAFFIC_ROUTING_FIELDS,
];
