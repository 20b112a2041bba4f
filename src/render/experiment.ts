import { KubeObject, cloneJson, isObject } from '../model/kube';
import { EXPERIMENT_LABEL, experimentWorkloadName } from '../model/experiment';
import { ExperimentTemplate, RolloutSpec } from '../model/rollout';
import { REVISION_ANNOTATION, withPruneLast } from '../model/track';
import { PodTemplateInput, labelTemplate } from './workload';

type Json = Record<string, unknown>;

export interface ExperimentInput {
  readonly rollout: RolloutSpec;
  /** The rollgen step whose commit carries the experiment. */
  readonly step: number;
  /** The Deployment as written: the experiment's Deployments copy its metadata and spec. */
  readonly deployment: KubeObject;
  readonly stablePod: PodTemplateInput;
  readonly canaryPod: PodTemplateInput;
}

/**
 * The experiment of step `step`, as Argo's experiment controller runs it: per template a workload of
 * the stable or canary pod template with `replicas` pods, told apart by a label of its own added to
 * its selector and pods (Argo adds a pod-template-hash of its own), and a Service of its container
 * ports where `service` is asked. Only the step's commit carries them: the next one removes them. Pure.
 */
export function renderExperiment(input: ExperimentInput): KubeObject[] {
  const experiment = input.rollout.steps[input.step - 1]?.experiment;
  if (!experiment) return [];
  return experiment.templates.flatMap((t) => {
    const name = experimentWorkloadName(input.rollout.name, input.step, t.name);
    const pod = t.specRef === 'stable' ? input.stablePod : input.canaryPod;
    const deployment = experimentDeployment(input.deployment, pod, t, name);
    const service = t.service ? experimentService(deployment, t.service.name ?? name) : undefined;
    return service ? [deployment, service] : [deployment];
  });
}

function experimentDeployment(
  source: KubeObject,
  pod: PodTemplateInput,
  t: ExperimentTemplate,
  name: string,
): KubeObject {
  const out = cloneJson(source) as Json & KubeObject;
  const spec = { ...(out.spec as Json) };
  const selector = isObject(spec.selector) ? spec.selector : {};
  const matchLabels = t.selector ?? (isObject(selector.matchLabels) ? selector.matchLabels : {});
  const own = { ...t.labels, [EXPERIMENT_LABEL]: name };
  spec.replicas = t.replicas;
  spec.selector = { matchLabels: { ...matchLabels, ...own } };
  spec.template = labelTemplate(pod.template, own, t.annotations);
  const metadata = {
    ...out.metadata,
    name,
    labels: { ...(out.metadata.labels ?? {}), [EXPERIMENT_LABEL]: name },
    annotations: { ...(out.metadata.annotations ?? {}), [REVISION_ANNOTATION]: pod.revision },
  };
  return { ...out, metadata: withPruneLast(metadata), spec };
}

/** Argo's experiment Service: the workload's name (or `service.name`), its pods' labels as selector, a port per container port. */
function experimentService(deployment: KubeObject, name: string): KubeObject | undefined {
  const template = (deployment.spec as Json).template as Json;
  const podSpec = isObject(template.spec) ? template.spec : {};
  const ports = (Array.isArray(podSpec.containers) ? podSpec.containers : []).flatMap((c) =>
    (isObject(c) && Array.isArray(c.ports) ? c.ports : []).filter(isObject).map((p) => ({
      ...(typeof p.name === 'string' ? { name: p.name } : {}),
      ...(typeof p.protocol === 'string' ? { protocol: p.protocol } : {}),
      port: p.containerPort,
      targetPort: p.containerPort,
    })),
  );
  if (ports.length === 0) return undefined;
  const labels = (isObject(template.metadata) ? template.metadata.labels : {}) as Record<string, string>;
  const meta = deployment.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      ...(meta.namespace ? { namespace: meta.namespace } : {}),
      labels: { [EXPERIMENT_LABEL]: meta.name },
      ...(meta.annotations?.['argocd.argoproj.io/sync-wave'] !== undefined
        ? { annotations: { 'argocd.argoproj.io/sync-wave': meta.annotations['argocd.argoproj.io/sync-wave'] } }
        : {}),
    },
    spec: { selector: { ...labels }, ports },
  };
}
