import { KubeObject, cloneJson, isObject } from '../model/kube';
import { EXPERIMENT_LABEL, experimentWorkloadName } from '../model/experiment';
import { ExperimentTemplate, RolloutSpec } from '../model/rollout';
import { REVISION_ANNOTATION, SYNC_WAVE, withPruneLast } from '../model/track';
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
  /** The rollout's stable Service, if any: an experiment Service offers its ports too, so routers reach it as they reach stable. */
  readonly stableService?: KubeObject;
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
    const service = t.service ? experimentService(deployment, t.service.name ?? name, input.stableService) : undefined;
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

/**
 * Argo's experiment Service: the workload's name (or `service.name`), its pods' labels as selector, a
 * port per container port (Argo's), after the stable Service's ports: a router that sends the
 * experiment a weight (ALB's servicePort, SMI and Istio's port of the host) finds the port it uses
 * for stable there too.
 */
function experimentService(deployment: KubeObject, name: string, stable?: KubeObject): KubeObject | undefined {
  const template = (deployment.spec as Json).template as Json;
  const ports = withNames([...stablePorts(stable), ...containerPorts(template)]);
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
      ...(meta.annotations?.[SYNC_WAVE] !== undefined
        ? { annotations: { [SYNC_WAVE]: meta.annotations[SYNC_WAVE] } }
        : {}),
    },
    spec: { selector: { ...labels }, ports },
  };
}

function stablePorts(stable?: KubeObject): Json[] {
  const spec = stable && isObject(stable.spec) ? stable.spec : {};
  return (Array.isArray(spec.ports) ? spec.ports : []).filter(isObject).map((p) => {
    const { nodePort: _node, ...port } = cloneJson(p);
    return port;
  });
}

function containerPorts(template: Json): Json[] {
  const podSpec = isObject(template.spec) ? template.spec : {};
  return (Array.isArray(podSpec.containers) ? podSpec.containers : []).flatMap((c) =>
    (isObject(c) && Array.isArray(c.ports) ? c.ports : []).filter(isObject).map((p) => ({
      ...(typeof p.name === 'string' ? { name: p.name } : {}),
      ...(typeof p.protocol === 'string' ? { protocol: p.protocol } : {}),
      port: p.containerPort,
      targetPort: p.containerPort,
    })),
  );
}

/** One entry per port number (the first wins); with several, each named, and each name once, as the API server requires. */
function withNames(ports: readonly Json[]): Json[] {
  const byNumber = new Map<unknown, Json>();
  for (const p of ports) if (!byNumber.has(p.port)) byNumber.set(p.port, { ...p });
  const out = [...byNumber.values()];
  if (out.length < 2) return out;
  const used = new Set<string>();
  return out.map((p) => {
    const wanted = typeof p.name === 'string' ? p.name : `port-${String(p.port)}`;
    const name = used.has(wanted) ? `${wanted}-${String(p.port)}` : wanted;
    used.add(name);
    return { ...p, name };
  });
}
