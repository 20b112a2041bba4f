import { Diagnostic } from '../diagnostics';
import { AnalysisRequest, readArgs, readDryRun } from '../model/analysis-request';
import { ExperimentAnalysis, ExperimentSpec, ExperimentTemplate, PauseSpec } from '../model/rollout';
import { arr, num, obj, str, stringMap } from '../model/values';
import { ParsedDocument } from '../yaml/parse';
import { parseDuration } from './argo-steps';

type Path = (string | number)[];

/** Argo routes experiment weights only with these traffic routers (docs/features/experiment.md). */
const WEIGHT_ROUTERS = ['alb', 'istio', 'smi'];
/** Those whose generators route them here so far (the extra destination in their weights). */
const ROUTED_HERE = WEIGHT_ROUTERS;
const STEP_FIELDS = new Set([
  'templates',
  'duration',
  'analyses',
  'dryRun',
  'analysisRunMetadata',
  'scaleDownDelaySeconds',
]);

/**
 * An Argo `experiment` step -> the experiment committed with the step before it, and the gate it adds
 * there: its duration (timed), else its required analyses (they gate the step until complete), else
 * a person (Argo runs such an experiment until it is terminated). Problems at their field.
 */
export function readExperiment(
  doc: ParsedDocument,
  raw: unknown,
  path: Path,
  routers: readonly string[],
  out: Diagnostic[],
): { experiment: ExperimentSpec; gate: PauseSpec } {
  const e = obj(raw);
  const at = (...f: Path) => doc.locate([...path, ...f]);
  for (const k of Object.keys(e).filter((k) => !STEP_FIELDS.has(k)))
    out.push({ ...at(k), message: `experiment field ${k} is not an Argo experiment step field`, severity: 'error' });
  for (const k of ['analysisRunMetadata', 'scaleDownDelaySeconds'].filter((k) => e[k] !== undefined))
    out.push({
      ...at(k),
      message: `${k} is ignored: rollgen keeps no AnalysisRuns or ReplicaSets; the experiment's workloads go with the next commit`,
      severity: 'warning',
    });
  const durationSeconds = e.duration === undefined ? undefined : parseDuration(e.duration);
  if (e.duration !== undefined && durationSeconds === undefined)
    out.push({ ...at('duration'), message: 'duration must be seconds or a number with s, m or h', severity: 'error' });
  const templates = arr(e.templates).map((t, i) => readTemplate(doc, t, [...path, 'templates', i], routers, out));
  if (templates.length === 0)
    out.push({ ...at(), message: 'an experiment needs templates (name, specRef)', severity: 'error' });
  unique(
    doc,
    templates.map((t) => t.name),
    [...path, 'templates'],
    out,
  );
  const dryRun = readDryRun(arr(e.dryRun), doc.locate, [...path, 'dryRun']);
  const analyses = arr(e.analyses).map((a, i) => readAnalysis(doc, a, [...path, 'analyses', i], dryRun));
  unique(
    doc,
    analyses.map((a) => a.name),
    [...path, 'analyses'],
    out,
  );
  const experiment = {
    origin: at(),
    templates,
    analyses,
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
  };
  const gate: PauseSpec =
    durationSeconds !== undefined
      ? { kind: 'timed', seconds: durationSeconds }
      : analyses.some((a) => a.required)
        ? { kind: 'none' }
        : { kind: 'manual' };
  return { experiment, gate };
}

function readTemplate(
  doc: ParsedDocument,
  raw: unknown,
  path: Path,
  routers: readonly string[],
  out: Diagnostic[],
): ExperimentTemplate {
  const t = obj(raw);
  const at = (...f: Path) => doc.locate([...path, ...f]);
  const name = str(t.name) ?? '';
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name))
    out.push({
      ...at('name'),
      message: 'an experiment template needs a name of lower-case letters, digits and -',
      severity: 'error',
    });
  const specRef = t.specRef === 'stable' || t.specRef === 'canary' ? t.specRef : 'canary';
  if (t.specRef !== 'stable' && t.specRef !== 'canary')
    out.push({ ...at('specRef'), message: 'specRef must be stable or canary, as Argo', severity: 'error' });
  const replicas = t.replicas === undefined ? 1 : num(t.replicas);
  if (replicas === undefined || !Number.isInteger(replicas) || replicas < 0)
    out.push({ ...at('replicas'), message: 'replicas must be a whole number of pods', severity: 'error' });
  const weight = t.weight === undefined ? undefined : num(t.weight);
  if (t.weight !== undefined) checkWeight(doc, [...path, 'weight'], weight, routers, out);
  const meta = obj(t.metadata);
  const selector = t.selector === undefined ? undefined : stringMap(obj(t.selector).matchLabels);
  if (t.selector !== undefined && obj(t.selector).matchExpressions !== undefined)
    out.push({
      ...at('selector', 'matchExpressions'),
      message: 'selector.matchExpressions is not supported; use matchLabels',
      severity: 'error',
    });
  const service =
    t.service !== undefined || t.weight !== undefined
      ? { ...(str(obj(t.service).name) ? { name: str(obj(t.service).name)! } : {}) }
      : undefined;
  return {
    name,
    specRef,
    replicas: replicas ?? 1,
    ...(weight !== undefined ? { weight } : {}),
    labels: stringMap(meta.labels),
    annotations: stringMap(meta.annotations),
    ...(selector ? { selector } : {}),
    ...(service ? { service } : {}),
    origin: at(),
  };
}

/**
 * Argo sends an experiment template `weight` of the traffic to its Service with the ALB, Istio and
 * SMI routers only (every router of the rollout must route it); one rollgen's generator does not
 * route yet is refused at the line too (a Service alone, `service: {}`, is rendered).
 */
function checkWeight(
  doc: ParsedDocument,
  path: Path,
  weight: number | undefined,
  routers: readonly string[],
  out: Diagnostic[],
): void {
  const cannot = routers.filter((r) => !WEIGHT_ROUTERS.includes(r));
  const notYet = routers.filter((r) => WEIGHT_ROUTERS.includes(r) && !ROUTED_HERE.includes(r));
  const message =
    weight === undefined || !Number.isInteger(weight) || weight < 0
      ? 'weight must be a whole number'
      : routers.length === 0
        ? 'an experiment weight needs trafficRouting (Argo refuses it without); remove weight'
        : cannot.length > 0
          ? `Argo routes experiment weights only with alb, istio and smi, not ${cannot.join(', ')}; remove weight and reach the experiment through its Service (service: {})`
          : notYet.length > 0
            ? `rollgen does not route experiment weights with ${notYet.join(', ')} yet (it does with smi and istio); remove weight and reach the experiment through its Service (service: {})`
            : undefined;
  if (message) out.push({ ...doc.locate(path), message, severity: 'error' });
}

function readAnalysis(
  doc: ParsedDocument,
  raw: unknown,
  path: Path,
  dryRun: AnalysisRequest['dryRun'],
): ExperimentAnalysis {
  const a = obj(raw);
  const request: AnalysisRequest = {
    templates: [
      {
        templateName: str(a.templateName) ?? '',
        clusterScope: a.clusterScope === true,
        at: { locate: doc.locate, path: [...path, 'templateName'] },
      },
    ],
    args: readArgs(arr(a.args), doc.locate, [...path, 'args']),
    dryRun,
    ignored: [],
    at: { locate: doc.locate, path },
  };
  return { name: str(a.name) ?? '', request, required: a.requiredForCompletion === true };
}

function unique(doc: ParsedDocument, names: readonly string[], path: Path, out: Diagnostic[]): void {
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i)
      out.push({
        ...doc.locate([...path, i, 'name']),
        message: `two entries are named "${n}"; names must be unique`,
        severity: 'error',
      });
  });
}
