import { FieldLedger, FieldRule } from './field-ledger';

/*
 * ANALYSIS FIELDS: the one place that classifies Argo analysis. rollgen's analysis engine
 * (src/analysis, `rollgen analyze`) evaluates step and background analysis and reads the
 * templates; request and template fields it does not evaluate are warned about by its readers.
 */

const READ_BY_ENGINE =
  "evaluated by rollgen's analysis engine at the step gates (rollgen analyze); fields it does not read are warned about where they are";

/** Analysis fields of an Argo Rollout; argo-fields.ts includes them. */
export const ARGO_ROLLOUT_ANALYSIS_RULES: readonly FieldRule[] = [
  {
    path: 'spec.analysis',
    status: 'warned',
    subtree: true,
    note: 'AnalysisRun history limits: rollgen keeps measurements on GitHub, not AnalysisRuns; remove the field',
  },
  {
    path: 'spec.strategy.canary.analysis',
    status: 'honoured',
    subtree: true,
    note: `background analysis, ${READ_BY_ENGINE}`,
  },
  {
    path: 'spec.strategy.canary.steps[].analysis',
    status: 'honoured',
    subtree: true,
    note: `a gate on the step before, ${READ_BY_ENGINE}`,
  },
  {
    path: 'spec.strategy.canary.steps[].experiment',
    status: 'honoured',
    subtree: true,
    note: "temporary Deployments (and Services) of the stable or canary pod template committed with the step before it and removed by the next commit; its duration is a timed gate, its analyses gate the step as Argo's (requiredForCompletion: until complete); a weight is routed to its Service by alb, istio and smi, refused with any other router",
  },
];

function analysisTemplateLedger(kind: string, file: string): FieldLedger {
  return {
    title: `Argo ${kind} (argoproj.io/v1alpha1)`,
    crd: { file, version: 'v1alpha1' },
    rules: [
      { path: 'spec', status: 'honoured', subtree: true, note: `read by the analysis engine; ${READ_BY_ENGINE}` },
    ],
  };
}

export const ANALYSIS_TEMPLATE_FIELDS = analysisTemplateLedger(
  'AnalysisTemplate',
  'argo-rollouts/analysis-template-crd.yaml',
);

export const CLUSTER_ANALYSIS_TEMPLATE_FIELDS = analysisTemplateLedger(
  'ClusterAnalysisTemplate',
  'argo-rollouts/cluster-analysis-template-crd.yaml',
);
