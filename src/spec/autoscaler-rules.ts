import { Diagnostic, diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { ResourceSet } from '../model/resource-set';
import { RolloutSpec } from '../model/rollout';

/**
 * A HorizontalPodAutoscaler of the rollout's pods. rollgen writes each step's replica counts into
 * the rendered Deployments and never applies the Rollout, so an HPA either targets an object the
 * GitOps engine prunes (the Rollout: it scales nothing) or resizes a Deployment whose `replicas`
 * the next sync writes back (the workload: the two fight, and the canary split is lost). Neither is
 * refused, since the app still deploys safely at the counts rollgen renders; both are said where
 * the HPA names its target, with what to do.
 */
export function autoscalerWarnings(r: RolloutSpec, resources: ResourceSet): Diagnostic[] {
  return resources.items.flatMap((item) => {
    const { object } = item;
    if (object.kind !== 'HorizontalPodAutoscaler' || (object.metadata.namespace ?? r.namespace) !== r.namespace)
      return [];
    const ref = isObject(object.spec) && isObject(object.spec.scaleTargetRef) ? object.spec.scaleTargetRef : undefined;
    if (!ref) return [];
    const at = item.locate(['spec', 'scaleTargetRef', 'name']);
    const hpa = `HorizontalPodAutoscaler "${object.metadata.name}"`;
    if (ref.kind === 'Rollout' && ref.name === r.name)
      return [
        diagnosticAt(
          at,
          `${hpa} scales Rollout "${r.name}", which rollgen reads but never writes to the output, so the GitOps engine prunes it and the HPA scales nothing; rollgen renders the replicas of each step into Deployment "${r.workload.name}" (and its -canary): set the Rollout's replicas to the size you need, or point the HPA at Deployment "${r.workload.name}" and have the engine ignore its /spec/replicas`,
          'warning',
        ),
      ];
    if (ref.kind === 'Deployment' && ref.name === r.workload.name)
      return [
        diagnosticAt(
          at,
          `${hpa} resizes Deployment "${r.workload.name}", whose replicas rollgen writes at every step (the stable share of the split); each sync writes them back and the HPA resizes again: have the engine ignore /spec/replicas of this Deployment (Argo CD ignoreDifferences) or remove the HPA while a rollout runs`,
          'warning',
        ),
      ];
    return [];
  });
}
