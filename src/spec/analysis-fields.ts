import { FieldLedger, FieldRule } from './field-ledger';

/*
 * ANALYSIS FIELDS: the one place that classifies Argo analysis. rollgen does not evaluate
 * analysis yet (the analysis engine, issue 10, flips these rules to honoured when it lands).
 * Until then each is warned: the step PRs' required checks are the gate.
 */

const NOT_EVALUATED =
  'analysis is not evaluated yet: rollgen runs no AnalysisRun; gate the step PRs with required checks instead';

/** Analysis fields of an Argo Rollout; argo-fields.ts includes them. */
export const ARGO_ROLLOUT_ANALYSIS_RULES: readonly FieldRule[] = [
  {
    path: 'spec.analysis',
    status: 'warned',
    subtree: true,
    note: `${NOT_EVALUATED} (run history limits have no runs to keep)`,
  },
  {
    path: 'spec.strategy.canary.analysis',
    status: 'warned',
    subtree: true,
    note: `${NOT_EVALUATED} (background analysis)`,
  },
  {
    path: 'spec.strategy.canary.steps[].analysis',
    status: 'warned',
    subtree: true,
    note: `${NOT_EVALUATED}; the step adds no step of its own`,
  },
  {
    path: 'spec.strategy.canary.steps[].experiment',
    status: 'warned',
    subtree: true,
    note: 'experiments are not run: rollgen starts no experiment ReplicaSets; the step adds no step of its own',
  },
];

const TEMPLATE_NOTE = `${NOT_EVALUATED}; the template is dropped from the output`;

function analysisTemplateLedger(kind: string, file: string): FieldLedger {
  return {
    title: `Argo ${kind} (argoproj.io/v1alpha1)`,
    crd: { file, version: 'v1alpha1' },
    rules: [{ path: 'spec', status: 'warned', subtree: true, note: TEMPLATE_NOTE }],
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
