import { FieldLedger, FieldRule, honoured, subtree, warned } from './field-ledger';

/** The fields of a Kruise Rollout (v1alpha1 and v1beta1) and how kruise.ts treats each. */

const CANARY = 'spec.strategy.canary';
const CRD = 'kruise-rollouts/rollouts.kruise.io_rollouts.yaml';

/** Kruise trafficRoutings entries (also a TrafficRouting's objectRef). */
export function kruiseRoutingRules(base: string): FieldRule[] {
  return [
    honoured(
      base,
      'one entry, as Kruise allows (a TrafficRouting reads its first); it needs ingress, gateway or customNetworkRefs',
    ),
    honoured(`${base}[].service`),
    subtree(`${base}[].ingress`, 'classType picks the provider: nginx, aliyun-alb, higress or mse'),
    subtree(`${base}[].gateway`, 'rendered by the gateway-api generator'),
    subtree(`${base}[].customNetworkRefs`, 'Istio VirtualService/DestinationRule: istio generator; others: custom'),
    warned(
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
  ...stepRules(CANARY),
  subtree(`${CANARY}.patchPodTemplateMetadata`, 'merged into the canary pod template only'),
];

/** What canary and (v1beta1) blueGreen share: steps, trafficRoutings and their options. */
function stepRules(base: string): FieldRule[] {
  return [
    honoured(base),
    honoured(`${base}.disableGenerateCanaryService`),
    warned(
      `${base}.failureThreshold`,
      'rollgen does not watch pods, so it never stops on failed pods; make the step PRs wait for a health check',
    ),
    subtree(`${base}.steps`, 'each step is one PR'),
    ...kruiseRoutingRules(`${base}.trafficRoutings`),
  ];
}

const BLUE_GREEN = 'spec.strategy.blueGreen';

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
    ...stepRules(BLUE_GREEN).map((r) =>
      r.path === BLUE_GREEN
        ? honoured(
            BLUE_GREEN,
            'the new version in a second full Deployment beside the old; steps and traffic as written',
          )
        : r,
    ),
    honoured(`${BLUE_GREEN}.trafficRoutingRef`),
  ],
};
