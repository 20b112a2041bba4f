import { Diagnostic, diagnosticAt, Origin } from '../diagnostics';
import { isObject, KubeObject } from '../model/kube';
import { ResourceSet } from '../model/resource-set';
import { RolloutSpec } from '../model/rollout';
import { SYNC_WAVE } from '../model/track';

type Report = (origin: Origin, message: string) => void;
type Labels = Readonly<Record<string, string>>;

/** One set of pods a Service selects during a rollout, and how to name it in a message. */
interface PodSet {
  readonly labels: Labels;
  readonly who: string;
  readonly when: string;
}

/**
 * A Service that selects a label only the rollout's pod metadata sets (Argo activeMetadata /
 * previewMetadata, stableMetadata / canaryMetadata, Kruise patchPodTemplateMetadata) selects no
 * pods once it moves to pods without that value: e.g. an active Service selecting `role: active`
 * after the blue-green switch, when the new version's pods carry previewMetadata. Argo has the
 * same gap (the new pods get activeMetadata only once fully promoted), so it is refused here,
 * at the selector key, before anything is written.
 */
export function checkServiceSelectors(r: RolloutSpec, resources: ResourceSet, report: Report): void {
  const template = templateLabels(r, resources);
  if (!template) return;
  const names = metadataNames(r);
  const stablePods: PodSet = {
    labels: { ...template, ...r.stablePodMetadata.labels },
    who: `your Deployment's pods (${names.stable})`,
    when: 'while they serve',
  };
  const canaryPods: PodSet = {
    labels: { ...template, ...r.canaryPodMetadata.labels },
    who: `the new version's pods (${names.canary})`,
    when: r.blueGreen && r.format === 'argo' ? 'after the switch' : 'while the canary runs',
  };
  const { stableService, canaryService, generateCanaryService } = r.traffic;
  const keys = new Set([...Object.keys(r.stablePodMetadata.labels), ...Object.keys(r.canaryPodMetadata.labels)]);
  if (keys.size === 0 || !stableService) return;
  const switched = r.steps.some((s) => s.switched === true);
  const shared = canaryService === undefined || canaryService === stableService;
  const stable = resources.find('Service', stableService, r.namespace);
  if (stable) check(stable.object, stable.locate, [stablePods, ...(switched || shared ? [canaryPods] : [])]);
  if (!canaryService || shared) return;
  const canary = generateCanaryService ? stable : resources.find('Service', canaryService, r.namespace);
  // A generated canary Service copies the stable selector; the canary pod metadata overrides the keys it sets.
  const overlay = generateCanaryService ? r.canaryPodMetadata.labels : {};
  if (canary) check(canary.object, canary.locate, [canaryPods], overlay, canaryService);

  function check(
    svc: KubeObject,
    locate: (path: readonly (string | number)[]) => Origin,
    pods: readonly PodSet[],
    overlay: Labels = {},
    name = svc.metadata.name,
  ): void {
    const selector = selectorOf(svc);
    for (const key of Object.keys(selector).filter((k) => keys.has(k))) {
      const want = overlay[key] ?? selector[key];
      const missing = pods.find((p) => p.labels[key] !== want);
      if (!missing) continue;
      const has = missing.labels[key] === undefined ? `no ${key} label` : `${key}: ${missing.labels[key]}`;
      report(
        locate(['spec', 'selector', key]),
        `Service "${name}" selects ${key}: ${want}, but ${missing.who} carry ${has}, so it would select no pods ${missing.when}; select on labels every version carries, or give both versions the same ${key}`,
      );
    }
  }
}

/**
 * The stable Service selects none of the workload's pods (a typo in its selector or the template's
 * labels): every step would send the stable share to no pod of this rollout. Warned at the key, as
 * the Service may be meant for other pods too.
 */
export function checkStableSelectsPods(r: RolloutSpec, resources: ResourceSet, warn: Report): void {
  const template = templateLabels(r, resources);
  const name = r.traffic.stableService;
  const stable = name ? resources.find('Service', name, r.namespace) : undefined;
  if (!template || !stable) return;
  // Keys the pod metadata sets are checkServiceSelectors' (an error there).
  const own = (k: string) => k in r.stablePodMetadata.labels || k in r.canaryPodMetadata.labels;
  const selector = selectorOf(stable.object);
  const key = Object.keys(selector).find((k) => !own(k) && template[k] !== String(selector[k]));
  if (key === undefined) return;
  const has = template[key] === undefined ? `no ${key} label` : `${key}: ${template[key]}`;
  warn(
    stable.locate(['spec', 'selector', key]),
    `Service "${name}" selects ${key}: ${selector[key]}, but the pods of Deployment "${r.workload.name}" carry ${has}: it would send traffic to none of them; fix the selector or the pod template's labels`,
  );
}

function templateLabels(r: RolloutSpec, resources: ResourceSet): Labels | undefined {
  const d = r.workload.synthesized ?? resources.find('Deployment', r.workload.name, r.namespace)?.object;
  const spec = d && isObject(d.spec) ? d.spec : {};
  const meta = isObject(spec.template) && isObject(spec.template.metadata) ? spec.template.metadata : {};
  return isObject(meta.labels) ? (meta.labels as Labels) : d ? {} : undefined;
}

function selectorOf(svc: KubeObject): Labels {
  const spec = isObject(svc.spec) ? svc.spec : {};
  return isObject(spec.selector) ? (spec.selector as Labels) : {};
}

function metadataNames(r: RolloutSpec): { stable: string; canary: string } {
  if (r.format !== 'argo') return { stable: 'as written', canary: 'patchPodTemplateMetadata' };
  return r.blueGreen
    ? { stable: 'activeMetadata', canary: 'previewMetadata' }
    : { stable: 'stableMetadata', canary: 'canaryMetadata' };
}

/**
 * Argo blue-green Services are its routes: rollgen writes them one sync wave after the Deployment
 * so Argo CD moves them only to ready pods. A wave of the user's own on them is replaced, and said
 * where it is written.
 */
export function serviceWaveWarnings(r: RolloutSpec, resources: ResourceSet): Diagnostic[] {
  if (!r.blueGreen || r.format !== 'argo') return [];
  const deployment = r.workload.synthesized ?? resources.find('Deployment', r.workload.name, r.namespace)?.object;
  const wave = String((deployment ? waveOf(deployment) : 0) + 1);
  const names = [...new Set([r.traffic.stableService, r.traffic.canaryService])];
  return names.flatMap((name) => {
    const svc = name ? resources.find('Service', name, r.namespace) : undefined;
    const own = svc?.object.metadata.annotations?.[SYNC_WAVE];
    if (!svc || own === undefined || own === wave) return [];
    return [
      diagnosticAt(
        svc.locate(['metadata', 'annotations', SYNC_WAVE]),
        `rollout ${r.name}: sync-wave "${own}" of Service "${name}" is replaced by "${wave}": blue-green Services switch one wave after the Deployment, so Argo CD moves them only to ready pods; remove the annotation`,
        'warning',
      ),
    ];
  });
}

function waveOf(d: KubeObject): number {
  const wave = Number.parseInt(d.metadata.annotations?.[SYNC_WAVE] ?? '0', 10);
  return Number.isFinite(wave) ? wave : 0;
}
