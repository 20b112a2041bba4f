import { Diagnostic, diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { TrackLabel } from '../model/track';
import { RolloutSpec } from '../model/rollout';
import { ArgInput, Located, originOf, readRequest } from '../model/analysis-request';
import { ExperimentSpec } from '../model/rollout';
import { experimentWorkloadName } from '../model/experiment';
import { ArgContext } from './args';
import { resolveAnalysis } from './resolve';
import { MetricSecrets } from './credentials';
import { TemplateIndex } from './templates';
import { AnalysisSpec, RolloutAnalysis } from './types';
import { effectiveCount } from './verdict';

/**
 * rollgen.yaml's `analysis:` of one app, as written (for Kruise rollouts, which have no analysis of their own):
 *   analysis:
 *     background: {templates: [{templateName: t}], args: [...], dryRun: [...], startingStep: 2}
 *     steps: [{step: 1, templates: [...], args: [...]}]
 */
export interface AppAnalysisConfig {
  readonly value: unknown;
  readonly at: Located;
}

/** Every analysis of one rollout, resolved against the templates; undefined when it has none. Problems go to `out`. */
export function rolloutAnalysis(
  spec: RolloutSpec,
  index: TemplateIndex,
  track: TrackLabel,
  config: AppAnalysisConfig | undefined,
  out: Diagnostic[],
  secrets?: MetricSecrets,
): RolloutAnalysis | undefined {
  const ctx = { rollout: spec.source ?? {}, track, ...(secrets ? { secrets } : {}) };
  const steps: Record<number, AnalysisSpec[]> = {};
  let background: RolloutAnalysis['background'];
  const experiments: Record<number, AnalysisSpec[]> = {};
  spec.steps.forEach((step, i) => {
    const resolved = (step.analyses ?? []).map((r) => resolveAnalysis(r, index, ctx, out));
    const ok = resolved.filter((a): a is AnalysisSpec => a !== undefined);
    const run = experimentAnalyses(spec, i + 1, index, ctx, out);
    if (ok.length + run.required.length > 0) steps[i + 1] = [...ok, ...run.required];
    if (run.optional.length > 0) experiments[i + 1] = run.optional;
  });
  if (spec.backgroundAnalysis) {
    const resolved = resolveAnalysis(spec.backgroundAnalysis.request, index, ctx, out);
    if (resolved) background = { spec: resolved, startingStep: spec.backgroundAnalysis.startingStep };
  }
  if (config) {
    if (spec.format === 'argo')
      out.push(
        diagnosticAt(
          config.at.locate(config.at.path),
          `rollout ${spec.name} is an Argo Rollout: write its analysis in the Rollout (steps[].analysis, canary.analysis), not in rollgen.yaml`,
        ),
      );
    else background = fromConfig(spec, config, index, ctx, steps, out) ?? background;
  }
  for (const [n, list] of Object.entries(steps)) list.forEach((a) => warnUnbounded(spec, Number(n), a, out));
  const hasExperiments = Object.keys(experiments).length > 0;
  if (Object.keys(steps).length === 0 && !background && !hasExperiments) return undefined;
  return { steps, ...(background ? { background } : {}), ...(hasExperiments ? { experiments } : {}) };
}

/** The analyses of step `n`'s experiment, `{{templates.X...}}` in their args naming its workloads, split by requiredForCompletion. */
function experimentAnalyses(
  spec: RolloutSpec,
  n: number,
  index: TemplateIndex,
  ctx: ArgContext,
  out: Diagnostic[],
): { required: AnalysisSpec[]; optional: AnalysisSpec[] } {
  const experiment = spec.steps[n - 1].experiment;
  const required: AnalysisSpec[] = [];
  const optional: AnalysisSpec[] = [];
  for (const a of experiment?.analyses ?? []) {
    const args = a.request.args.map((arg) => withTemplateRefs(arg, spec.name, n, experiment!, out));
    const resolved = resolveAnalysis({ ...a.request, args }, index, ctx, out);
    if (resolved) (a.required ? required : optional).push(resolved);
  }
  return { required, optional };
}

/** Argo's `{{templates.<name>.podTemplateHash}}` and `{{templates.<name>.replicaset.name}}`: here the workload's label value and name (one and the same). */
function withTemplateRefs(
  arg: ArgInput,
  rollout: string,
  n: number,
  experiment: ExperimentSpec,
  out: Diagnostic[],
): ArgInput {
  if (arg.value === undefined) return arg;
  const value = arg.value.replace(
    /\{\{\s*templates\.([\w-]+)\.(podTemplateHash|replicaset\.name)\s*\}\}/g,
    (whole, name: string) => {
      if (experiment.templates.some((t) => t.name === name)) return experimentWorkloadName(rollout, n, name);
      out.push(diagnosticAt(originOf(arg.at), `arg "${arg.name}": the experiment has no template "${name}"`));
      return whole;
    },
  );
  return { ...arg, value };
}

function fromConfig(
  spec: RolloutSpec,
  config: AppAnalysisConfig,
  index: TemplateIndex,
  ctx: { rollout: unknown; track: TrackLabel },
  steps: Record<number, AnalysisSpec[]>,
  out: Diagnostic[],
): RolloutAnalysis['background'] {
  const v = isObject(config.value) ? config.value : {};
  const { locate, path } = config.at;
  (Array.isArray(v.steps) ? v.steps : []).forEach((entry, i) => {
    const step = isObject(entry) ? Number(entry.step) : NaN;
    if (!Number.isInteger(step) || step < 1 || step > spec.steps.length) {
      const message = `analysis step ${String(isObject(entry) ? entry.step : entry)} is not a step of rollout ${spec.name} (1-${spec.steps.length})`;
      out.push(diagnosticAt(locate([...path, 'steps', i]), message));
      return;
    }
    const resolved = resolveAnalysis(readRequest(entry, locate, [...path, 'steps', i]), index, ctx, out);
    if (resolved) steps[step] = [...(steps[step] ?? []), resolved];
  });
  if (!isObject(v.background)) return undefined;
  const startingStep = v.background.startingStep === undefined ? 1 : Number(v.background.startingStep);
  if (!Number.isInteger(startingStep) || startingStep < 1 || startingStep > spec.steps.length)
    out.push(
      diagnosticAt(
        locate([...path, 'background', 'startingStep']),
        `startingStep must be a step of rollout ${spec.name} (1-${spec.steps.length})`,
      ),
    );
  const resolved = resolveAnalysis(readRequest(v.background, locate, [...path, 'background']), index, ctx, out);
  return resolved ? { spec: resolved, startingStep } : undefined;
}

/**
 * A step analysis must complete; a metric without count never does (Argo measures it until it fails,
 * so the AnalysisRun stays Running and the step, or blue-green promotion, waits forever). rollgen's
 * gate does the same: it stays running, so the step never passes by itself.
 */
function warnUnbounded(spec: RolloutSpec, n: number, a: AnalysisSpec, out: Diagnostic[]): void {
  const name = spec.steps[n - 1]?.name;
  const at = `step ${n}${name ? ` (${name})` : ''}`;
  // Argo blue-green has no background analysis.
  const instead = spec.format === 'argo' && spec.blueGreen ? '' : ', or use it as background analysis';
  for (const m of a.metrics)
    if (effectiveCount(m) === undefined)
      out.push(
        diagnosticAt(
          m.origin,
          `metric "${m.name}" has an interval and no count: in the analysis gating ${at} it is measured until it fails and never completes (as in Argo), so that gate never passes and the rollout waits there until you promote or abort it; add count${instead}`,
          'warning',
        ),
      );
}
