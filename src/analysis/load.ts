import { Diagnostic } from '../diagnostics';
import { GateSummary, MetricSummary, Plan } from '../model/plan';
import { TrackLabel, defaultTrackLabel } from '../model/track';
import { RolloutSpec } from '../model/rollout';
import { ParsedDocument } from '../yaml/parse';
import { gatesOf } from './gates';
import { AppAnalysisConfig, rolloutAnalysis } from './rollout-analysis';
import { TemplateDoc, TemplateIndex, readTemplate } from './templates';
import { AnalysisSpec, GateAnalysis, RolloutAnalysis } from './types';
import { MetricSecrets } from './credentials';

/** What an app's loading needs beyond its own documents: rollgen.yaml's shared templates and `analysis:` entry. */
export interface AnalysisOptions {
  /** Documents of the `analysisTemplates` directory (only the AnalysisTemplate kinds are read). */
  readonly sharedTemplates?: readonly ParsedDocument[];
  readonly config?: AppAnalysisConfig;
  readonly track?: TrackLabel;
  /** rollgen.yaml `metricSecrets`. */
  readonly metricSecrets?: MetricSecrets;
}

/** Resolves every rollout's analysis of one app; rollout name -> its analyses. Problems go to `out`. */
export function loadAnalysis(
  specs: readonly RolloutSpec[],
  own: readonly TemplateDoc[],
  options: AnalysisOptions,
  out: Diagnostic[],
): Map<string, RolloutAnalysis> {
  const shared = (options.sharedTemplates ?? []).flatMap((d) => {
    const kind = (d.value as { kind?: unknown }).kind;
    return kind === 'AnalysisTemplate' || kind === 'ClusterAnalysisTemplate' ? [readTemplate(d, out) ?? []].flat() : [];
  });
  const index = new TemplateIndex(own, shared, out);
  const found = new Map<string, RolloutAnalysis>();
  for (const spec of specs) {
    const a = rolloutAnalysis(
      spec,
      index,
      options.track ?? defaultTrackLabel,
      options.config,
      out,
      options.metricSecrets,
    );
    if (a) found.set(spec.name, a);
  }
  return found;
}

/** A loaded rollout with its analyses, and each planned step's gate listing them (what `rollgen plan` shows). */
export function withGates<R extends { readonly plan: Plan }>(
  rollout: R,
  analysis: RolloutAnalysis | undefined,
): R & { readonly analysis?: RolloutAnalysis } {
  if (!analysis) return rollout;
  const steps = rollout.plan.steps.map((s) => {
    const gates = gatesOf(analysis, s.index);
    return gates.length > 0 ? { ...s, analysis: gates.map(summary) } : s;
  });
  return { ...rollout, analysis, plan: { ...rollout.plan, steps } };
}

function summary(g: GateAnalysis): GateSummary {
  const jobs = (g.spec.jobs ?? []).map(
    (j): MetricSummary => ({ name: j.name, provider: 'job', failureLimit: 0, dryRun: false }),
  );
  return {
    kind: g.kind,
    id: g.id,
    templates: g.spec.templates,
    metrics: [...g.spec.metrics.map(metricSummary), ...jobs],
  };
}

function metricSummary(m: AnalysisSpec['metrics'][number]): MetricSummary {
  return {
    name: m.name,
    provider: m.provider.kind,
    ...(m.successCondition ? { successCondition: m.successCondition.source } : {}),
    ...(m.failureCondition ? { failureCondition: m.failureCondition.source } : {}),
    ...(m.count !== undefined ? { count: m.count } : {}),
    ...(m.interval !== undefined ? { interval: m.interval } : {}),
    failureLimit: m.failureLimit,
    dryRun: m.dryRun,
  };
}
