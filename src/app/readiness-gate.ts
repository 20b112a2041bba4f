import type { Diagnostic } from '../diagnostics';
import { isObject } from '../model/kube';
import type { ParsedDocument } from '../yaml/parse';

export const READINESS_GATE_LABEL = 'elbv2.k8s.aws/pod-readiness-gate-inject';

/**
 * With `verify.aws.targetGroupIPs`, each ALB Ingress of the source whose namespace is not labelled
 * for the AWS Load Balancer Controller's pod readiness gate is warned about at the Ingress: without
 * the gate a rolling update can end pods before their replacements are registered in the target
 * group, which rollgen's check between commits cannot prevent (AWS recommends the label). The
 * Namespace is looked for among the app's own source documents. Pure.
 */
export function readinessGateWarnings(docs: readonly ParsedDocument[]): Diagnostic[] {
  const objects = docs.filter((d) => isObject(d.value)) as (ParsedDocument & { value: Record<string, unknown> })[];
  const meta = (d: { value: Record<string, unknown> }) => (isObject(d.value.metadata) ? d.value.metadata : {});
  return objects.filter(isAlbIngress).flatMap((ing) => {
    const ns = typeof meta(ing).namespace === 'string' ? String(meta(ing).namespace) : 'default';
    const namespace = objects.find((d) => d.value.kind === 'Namespace' && meta(d).name === ns);
    const labels =
      namespace && isObject(meta(namespace).labels) ? (meta(namespace).labels as Record<string, unknown>) : {};
    if (labels[READINESS_GATE_LABEL] === 'enabled') return [];
    const where = namespace
      ? `the Namespace ${ns} (${namespace.origin.file}:${namespace.origin.line}) is not labelled`
      : `no Namespace ${ns} in the app's source is labelled`;
    return [
      {
        ...ing.locate(['metadata', 'namespace']),
        severity: 'warning' as const,
        message: `ALB Ingress ${ns}/${String(meta(ing).name)}: ${where} ${READINESS_GATE_LABEL}: enabled, so pods may end before the target group holds their replacements during a rolling update; add the label to the Namespace (AWS's pod readiness gate), as verify.aws.targetGroupIPs checks only between commits`,
      },
    ];
  });
}

function isAlbIngress(d: { value: Record<string, unknown> }): boolean {
  if (d.value.kind !== 'Ingress') return false;
  const spec = isObject(d.value.spec) ? d.value.spec : {};
  const ann = isObject(d.value.metadata) && isObject(d.value.metadata.annotations) ? d.value.metadata.annotations : {};
  return spec.ingressClassName === 'alb' || ann['kubernetes.io/ingress.class'] === 'alb';
}
