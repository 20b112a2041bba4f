import type { ProviderInputs } from '../contract/inputs';
import { ARGO_ROLLOUT_ANALYSIS_RULES } from './analysis-fields';
import { FieldLedger, FieldRule, honoured, subtree, warned, warnedTree } from './field-ledger';

/** The fields of an Argo Rollout and how argo.ts (and the generators it hands options to) treat each. */

const CANARY = 'spec.strategy.canary';
const ROUTING = `${CANARY}.trafficRouting`;

/** Argo trafficRouting keys: honoured when a generator reads the key, refused (naming what rollgen renders) until then. */
function providerRules(inputs: ProviderInputs): FieldRule[] {
  const supported = inputs.argoKeys.map((k) => k.replace('/', '.')).join(', ');
  return ['smi', 'ambassador', 'traefik', 'apisix', 'appMesh'].map((key) =>
    inputs.argoKeys.includes(key)
      ? subtree(`${ROUTING}.${key}`, `rendered by the generator that reads trafficRouting.${key}`)
      : {
          path: `${ROUTING}.${key}`,
          status: 'refused',
          subtree: true,
          note: `traffic provider ${key} is not supported yet; rollgen renders ${supported}`,
        },
  );
}

const BG = 'spec.strategy.blueGreen';

/** Argo blue-green (argo-bluegreen.ts): a preview step and a switch step over the canary machinery. */
const BLUE_GREEN_RULES: readonly FieldRule[] = [
  honoured(BG, 'two steps: preview (the new version beside the old) and switch (the active Service selects it)'),
  honoured(`${BG}.activeService`, "its selector picks the old version's pods until the switch, the new one's after"),
  honoured(`${BG}.previewService`, "its selector picks the new version's pods from the preview on"),
  honoured(`${BG}.autoPromotionEnabled`, 'false: the switch waits for a person (manual gate after the preview)'),
  honoured(
    `${BG}.autoPromotionSeconds`,
    'a timed gate after the preview (ignored, and warned, when autoPromotionEnabled is false, as Argo)',
  ),
  honoured(`${BG}.previewReplicaCount`, 'pods of the preview step; the switch runs all replicas'),
  honoured(
    `${BG}.scaleDownDelaySeconds`,
    'a timed gate after the switch (default 30 s): the old version is scaled down by a later commit',
  ),
  honoured(
    `${BG}.abortScaleDownDelaySeconds`,
    'after an abort the preview pods stay (default 30 s, as Argo): a later commit behind a timed gate removes them; 0 removes them in the abort commit (warned)',
  ),
  warned(`${BG}.scaleDownDelayRevisionLimit`, 'rollgen keeps no old ReplicaSets running; remove the field'),
  subtree(
    `${BG}.activeMetadata`,
    "merged into your Deployment's pod template (the pods the active Service selects between rollouts)",
  ),
  subtree(
    `${BG}.previewMetadata`,
    "merged into the preview Deployment's pod template; they stay on its pods after the switch (changing them would restart the pods)",
  ),
  subtree(`${BG}.antiAffinity`, 'preview pods avoid nodes running the old version (injected into their pod template)'),
  honoured(`${BG}.maxUnavailable`, 'the rolling update bound of the rendered Deployments'),
  subtree(`${BG}.prePromotionAnalysis`, 'must pass at the gate before the switch (evaluated by the analysis engine)'),
  subtree(
    `${BG}.postPromotionAnalysis`,
    'must pass at the gate after the switch; a failure aborts back to the old version (evaluated by the analysis engine)',
  ),
];

const POD_FIELD = 'copied onto the rendered Deployments, as Argo applies it to its ReplicaSets';

/** The ledger depends on the providers rollgen has (`inputs`, from the generator registry). */
export const argoRolloutFields = (inputs: ProviderInputs): FieldLedger => ({
  title: 'Argo Rollout (argoproj.io/v1alpha1)',
  crd: { file: 'argo-rollouts/rollout-crd.yaml', version: 'v1alpha1' },
  rules: [
    honoured('spec'),
    honoured('spec.replicas'),
    subtree('spec.selector', 'the selector of the rendered Deployment (inline template)'),
    subtree('spec.template', 'the pod template, passed through to the Deployment (inline template)'),
    honoured('spec.workloadRef'),
    honoured('spec.workloadRef.apiVersion'),
    honoured('spec.workloadRef.kind', 'Deployment only; any other kind is refused'),
    honoured('spec.workloadRef.name'),
    warned(
      'spec.workloadRef.scaleDown',
      'rollgen renders the referenced Deployment itself as the stable workload, so there is no original Deployment to scale down; remove the field',
    ),
    honoured('spec.minReadySeconds', POD_FIELD),
    honoured('spec.progressDeadlineSeconds', POD_FIELD),
    honoured('spec.revisionHistoryLimit', POD_FIELD),
    honoured('spec.paused', 'the rollout holds: advance and rollgen pr propose nothing for it until it is false'),
    warned(
      'spec.progressDeadlineAbort',
      'rollgen does not watch pod progress, so it never aborts on a deadline; make the step PRs wait for a health check',
    ),
    warned(
      'spec.restartAt',
      'rollgen restarts no pods; change an annotation of the pod template to roll the pods through the steps',
    ),
    warnedTree(
      'spec.rollbackWindow',
      'rollgen runs every step for each new revision, including one that rolls back; use rollgen abort to return to stable at once',
    ),
    honoured('spec.strategy'),
    ...BLUE_GREEN_RULES,
    honoured(CANARY),
    honoured(
      `${CANARY}.abortScaleDownDelaySeconds`,
      'after an abort the canary workloads stay one more commit (two-commit removal), merged this many seconds later (default 30 s with trafficRouting, as Argo; with dynamicStableScale none unless written); 0 = a person merges it',
    ),
    honoured(
      `${CANARY}.scaleDownDelaySeconds`,
      'after promotion the canary workloads stay one more commit (two-commit removal), merged this many seconds later (default 30 s with trafficRouting, as Argo; ping-pong: the clean-up waits too); needs trafficRouting',
    ),
    warned(`${CANARY}.scaleDownDelayRevisionLimit`, 'rollgen keeps no old ReplicaSets running; remove the field'),
    subtree(
      `${CANARY}.antiAffinity`,
      'canary pods avoid nodes running stable pods (injected into the canary pod template)',
    ),
    subtree(`${CANARY}.canaryMetadata`, 'merged into the canary pod template'),
    subtree(`${CANARY}.stableMetadata`, 'merged into the stable pod template'),
    honoured(`${CANARY}.canaryService`),
    honoured(`${CANARY}.stableService`),
    honoured(
      `${CANARY}.dynamicStableScale`,
      'stable pods shrink to the traffic they keep (sized for the higher of this and the previous step), with trafficRouting',
    ),
    honoured(`${CANARY}.maxSurge`, 'the rolling update bound of the rendered Deployments'),
    honoured(`${CANARY}.maxUnavailable`, 'the rolling update bound of the rendered Deployments'),
    honoured(
      `${CANARY}.minPodsPerReplicaSet`,
      'a non-empty stable or canary side runs at least this many pods, with trafficRouting',
    ),
    subtree(
      `${CANARY}.pingPong`,
      'the ping and pong Services swap the stable and canary roles at each clean-up; no Service selector changes (aws-alb, istio host mode)',
    ),
    warnedTree(
      `${CANARY}.replicaProgressThreshold`,
      'rollgen does not watch pod readiness; make the step PRs wait for a health check',
    ),
    honoured(
      `${CANARY}.steps`,
      "each step's setWeight, setCanaryScale, setHeaderRoute and setMirrorRoute make one rollgen step, its pause or analysis the gate after it; two of setWeight, pause, experiment, analysis in one step are refused, as Argo",
    ),
    subtree(
      `${CANARY}.steps[].pause`,
      'a manual or timed gate after the step before; before the first step, a person starts the rollout (whatever gates.firstStep says)',
    ),
    {
      path: `${CANARY}.steps[].plugin`,
      status: 'warned',
      subtree: true,
      note: 'rollgen runs no step plugin (they run in the Argo controller) while Argo holds here until it succeeds and aborts if it fails; so the gate before this step is manual: do what the plugin does before you merge the next step',
    },
    subtree(`${CANARY}.steps[].setCanaryScale`, 'canary pods of the step'),
    subtree(`${CANARY}.steps[].setHeaderRoute`, 'a named header route to the canary'),
    subtree(`${CANARY}.steps[].setMirrorRoute`, 'a named mirror route to the canary'),
    honoured(`${CANARY}.steps[].setWeight`),
    honoured(ROUTING),
    subtree(`${ROUTING}.managedRoutes`, 'the order of header and mirror routes'),
    honoured(`${ROUTING}.maxTrafficWeight`),
    subtree(`${ROUTING}.istio`, 'rendered by the istio generator'),
    subtree(
      `${ROUTING}.istio.destinationRule.additionalSubsetNames`,
      'the canary gets exactly the step weight, these subsets keep theirs, stable gets the rest (as Argo)',
    ),
    subtree(`${ROUTING}.nginx`, 'rendered by the ingress-nginx generator'),
    subtree(`${ROUTING}.alb`, 'rendered by the aws-alb generator'),
    ...providerRules(inputs),
    subtree(
      `${ROUTING}.plugins`,
      'argoproj-labs/gatewayAPI is rendered by the gateway-api generator; any other plugin is refused by name',
    ),
    ...ARGO_ROLLOUT_ANALYSIS_RULES,
  ],
});
