import { FieldLedger, FieldRule, honoured, subtree, warned } from './field-ledger';

/** The fields of a Kruise Rollout (v1alpha1 and v1beta1) and how kruise.ts treats each. */

const CANARY = 'spec.strategy.canary';
const CRD = 'kruise-rollouts/rollouts.kruise.io_rollouts.yaml';

/** Kruise trafficRoutings entries (also a TrafficRouting's objectRef, whose grace period rollgen does not read). */
export function kruiseRoutingRules(base: string, gracePeriod: 'honoured' | 'warned' = 'warned'): FieldRule[] {
  return [
    honoured(
      base,
      'one entry, as Kruise allows (a TrafficRouting reads its first); it needs ingress, gateway or customNetworkRefs',
    ),
    honoured(`${base}[].service`),
    subtree(`${base}[].ingress`, 'classType picks the provider: nginx, aliyun-alb, higress or mse'),
    subtree(`${base}[].gateway`, 'rendered by the gateway-api generator'),
    subtree(`${base}[].customNetworkRefs`, 'Istio VirtualService/DestinationRule: istio generator; others: custom'),
    gracePeriod === 'honoured'
      ? honoured(
          `${base}[].gracePeriodSeconds`,
          'canary workloads stay one more commit after routes leave them (two-commit removal), merged this many seconds later',
        )
      : warned(
          `${base}[].gracePeriodSeconds`,
          'rollgen does not wait between route and workload changes; Argo CD sync waves and the step gate order them',
        ),
  ];
}

const COMMON: readonly FieldRule[] = [
  honoured('spec'),
  honoured('spec.disabled', 'the workload is rendered as a plain Deployment, with no canary'),
  honoured('spec.strategy'),
  honoured(
    'spec.strategy.paused',
    'the rollout holds: advance and rollgen pr propose nothing for it until it is false',
  ),
  honoured(CANARY),
  honoured(`${CANARY}.disableGenerateCanaryService`),
  warned(
    `${CANARY}.failureThreshold`,
    'rollgen does not watch pods, so it never stops on failed pods; make the step PRs wait for a health check',
  ),
  subtree(`${CANARY}.patchPodTemplateMetadata`, 'merged into the canary pod template only'),
  subtree(`${CANARY}.steps`, 'each step is one PR'),
  ...kruiseRoutingRules(`${CANARY}.trafficRoutings`, 'honoured'),
];

export const KRUISE_V1ALPHA1_FIELDS: FieldLedger = {
  title: 'Kruise Rollout (rollouts.kruise.io/v1alpha1)',
  crd: { file: CRD, version: 'v1alpha1' },
  rules: [
    ...COMMON,
    subtree('spec.objectRef', 'workloadRef: Deployment only; CloneSet, StatefulSet and DaemonSet are refused'),
    warned('spec.rolloutID', 'rollgen starts a rollout when the pod template changes; rolloutID is not read'),
  ],
};

export const KRUISE_V1BETA1_FIELDS: FieldLedger = {
  title: 'Kruise Rollout (rollouts.kruise.io/v1beta1)',
  crd: { file: CRD, version: 'v1beta1' },
  rules: [
    ...COMMON,
    subtree('spec.workloadRef', 'Deployment only; CloneSet, StatefulSet and DaemonSet are refused'),
    honoured(`${CANARY}.enableExtraWorkloadForCanary`, 'true: canary style (extra pods); false: partition style'),
    honoured(`${CANARY}.trafficRoutingRef`),
    {
      path: 'spec.strategy.blueGreen',
      status: 'refused',
      subtree: true,
      note: 'blue-green is not supported yet; use strategy.canary with a last step of replicas: 100%',
    },
  ],
};
