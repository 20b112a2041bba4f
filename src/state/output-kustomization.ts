import { Diagnostic } from '../diagnostics';
import { isObject } from '../model/kube';
import { suggestName } from '../suggest';
import type { ParsedDocument } from '../yaml/parse';

/**
 * The output's kustomization.yaml is rollgen's, but people add fields to it, and rollgen keeps
 * them. Fields that change the objects rollgen rendered would make what Argo CD or Flux applies
 * differ from the step rollgen planned: an `images:` entry there sets the stable and the canary
 * image alike, so a new image reaches every pod at once. Those are refused at their line; a field
 * kustomize does not know is refused too (kustomize would refuse the file at apply time). Pure.
 */
const SAME_FOR_EVERY_POD = 'so a change reaches the stable and the canary pods at once, without a canary';
const CHANGES: Readonly<Record<string, string>> = {
  images: `sets the image of every Deployment rollgen rendered, ${SAME_FOR_EVERY_POD}`,
  replicas: 'overrides the replica counts rollgen sets at each step',
  patches: `patches the objects rollgen rendered for this step, ${SAME_FOR_EVERY_POD}`,
  patchesStrategicMerge: `patches the objects rollgen rendered for this step, ${SAME_FOR_EVERY_POD}`,
  patchesJson6902: `patches the objects rollgen rendered for this step, ${SAME_FOR_EVERY_POD}`,
  configMapGenerator: `generates a ConfigMap beside the pods rollgen rendered, ${SAME_FOR_EVERY_POD}`,
  secretGenerator: `generates a Secret beside the pods rollgen rendered, ${SAME_FOR_EVERY_POD}`,
  namePrefix:
    'renames the objects rollgen routes traffic between; the names in its routes and annotations are not all renamed',
  nameSuffix:
    'renames the objects rollgen routes traffic between; the names in its routes and annotations are not all renamed',
  commonLabels: `adds labels to the selectors and pod templates rollgen rendered (a Deployment's selector cannot change once applied), ${SAME_FOR_EVERY_POD}`,
  replacements: `copies values into the objects rollgen rendered, ${SAME_FOR_EVERY_POD}`,
  vars: `substitutes values into the objects rollgen rendered, ${SAME_FOR_EVERY_POD}`,
  components: 'applies components that can change the objects rollgen rendered for this step',
  transformers: 'runs transformers over the objects rollgen rendered for this step',
  generators: 'runs generators beside the objects rollgen rendered for this step',
  helmCharts: 'renders charts beside the objects rollgen rendered for this step',
  helmChartInflationGenerator: 'renders charts beside the objects rollgen rendered for this step',
};

/**
 * Fields that leave rollgen's objects as rendered or add metadata only (`commonAnnotations` also reach
 * pod templates: a change there restarts pods, but carries no new version).
 */
const KEPT = [
  'apiVersion',
  'kind',
  'metadata',
  'resources',
  'bases',
  'namespace',
  'commonAnnotations',
  'labels',
  'buildMetadata',
  'sortOptions',
  'generatorOptions',
  'configurations',
  'crds',
  'openapi',
  'validators',
  'helmGlobals',
];
const KNOWN = [...KEPT, ...Object.keys(CHANGES)];

const MOVE =
  "move it to the app's source, where rollgen renders it and rolls a change out step by step, or remove it; nothing was written";

/** The output kustomization's problems: each field that would change rollgen's objects, at its line. */
export function outputKustomizationProblems(doc: ParsedDocument): Diagnostic[] {
  if (!isObject(doc.value)) return [];
  const problems: Diagnostic[] = [];
  const error = (at: readonly (string | number)[], message: string) =>
    problems.push({ ...doc.locate(at), message, severity: 'error' });
  for (const [key, value] of Object.entries(doc.value)) {
    if (key in CHANGES) error([key], `\`${key}\` in the output's kustomization ${CHANGES[key]}: ${MOVE}`);
    else if (key === 'labels') labelProblems(value).forEach((i) => error([key, i], labelMessage(value, i)));
    else if (!KNOWN.includes(key)) {
      const meant = suggestName(key, KNOWN);
      error(
        [key],
        `\`${key}\` is not a Kustomization field: kustomize refuses this file${meant ? ` (did you mean ${meant}?)` : ''}`,
      );
    }
  }
  return problems;
}

/** `labels` entries that reach selectors or pod templates (plain `labels` only touch metadata). */
function labelProblems(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry, i) =>
    isObject(entry) && (entry.includeSelectors === true || entry.includeTemplates === true) ? [i] : [],
  );
}

function labelMessage(value: unknown, i: number): string {
  const entry = (value as Record<string, unknown>[])[i];
  const reach = entry.includeSelectors === true ? 'selectors and pod templates' : 'pod templates';
  return `\`labels\` with include${entry.includeSelectors === true ? 'Selectors' : 'Templates'} in the output's kustomization adds labels to the ${reach} rollgen rendered, ${SAME_FOR_EVERY_POD}: ${MOVE}`;
}
