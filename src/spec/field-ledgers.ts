import { ANALYSIS_TEMPLATE_FIELDS, CLUSTER_ANALYSIS_TEMPLATE_FIELDS } from './analysis-fields';
import { ARGO_ROLLOUT_FIELDS } from './argo-fields';
import { FieldLedger } from './field-ledger';
import { KRUISE_V1ALPHA1_FIELDS, KRUISE_V1BETA1_FIELDS } from './kruise-fields';
import { TRAFFIC_ROUTING_FIELDS } from './traffic-routing-fields';
import { SchemaId } from './validate-schema';

/** The ledger of each rollout format rollgen reads. */
export const ROLLOUT_LEDGERS: Partial<Record<SchemaId, FieldLedger>> = {
  'argo-rollout': ARGO_ROLLOUT_FIELDS,
  'kruise-rollout-v1alpha1': KRUISE_V1ALPHA1_FIELDS,
  'kruise-rollout-v1beta1': KRUISE_V1BETA1_FIELDS,
};

/** Argo kinds read for their fields only (nothing of them is rendered). */
export const ANALYSIS_LEDGERS: Readonly<Record<string, FieldLedger>> = {
  AnalysisTemplate: ANALYSIS_TEMPLATE_FIELDS,
  ClusterAnalysisTemplate: CLUSTER_ANALYSIS_TEMPLATE_FIELDS,
};

/** Every ledger, in the order the docs list them; the meta-test walks each one's CRD. */
export const ALL_LEDGERS: readonly FieldLedger[] = [
  ARGO_ROLLOUT_FIELDS,
  ANALYSIS_TEMPLATE_FIELDS,
  CLUSTER_ANALYSIS_TEMPLATE_FIELDS,
  KRUISE_V1ALPHA1_FIELDS,
  KRUISE_V1BETA1_FIELDS,
  TRAFFIC_ROUTING_FIELDS,
];
