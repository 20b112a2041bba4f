import { Diagnostic, diagnosticAt } from '../diagnostics';
import { ArgContext, ResolvedArgs, resolveArgs } from './args';
import { buildMetric } from './metric';
import { AnalysisRequest, DryRunRule, originOf } from '../model/analysis-request';
import { TemplateDoc, TemplateIndex } from './templates';
import { AnalysisSpec, JobMetric, MetricSpec } from './types';
import { buildJobMetric, isJobMetric } from './provider-job';

/**
 * One analysis request -> the AnalysisSpec it runs, as Argo builds an AnalysisRun from templateRefs:
 * templates found, metrics concatenated (names unique), args flattened and merged, `{{args.X}}`
 * substituted, every metric checked. Problems go to `out` with their location; undefined when any is an error. Pure.
 */
export function resolveAnalysis(
  request: AnalysisRequest,
  index: TemplateIndex,
  ctx: ArgContext,
  out: Diagnostic[],
): AnalysisSpec | undefined {
  const problems: Diagnostic[] = [];
  for (const k of request.ignored)
    problems.push(diagnosticAt(originOf(request.at, k), `analysis field ${k} is ignored by rollgen`, 'warning'));
  const templates = findTemplates(request, index, problems);
  checkNamespaces(templates, ctx, request, problems);
  if (request.templates.length === 0)
    problems.push(
      diagnosticAt(originOf(request.at), 'analysis names no templates; add templates: [{templateName: ...}]'),
    );
  const args = resolveArgs(templates, request.args, ctx, problems, templates.length === request.templates.length);
  const rules = [...templates.flatMap((t) => t.dryRun), ...request.dryRun];
  const dryRun = rules.flatMap((r) => (r.metricName !== undefined ? [r.metricName] : []));
  const written = templates.flatMap((t) => t.metrics.map((m) => ({ t, ...m, dryRun: dryRunOf(dryRun, m.raw) })));
  const metrics = written
    .filter((m) => !isJobMetric(m.raw))
    .map((m) => buildMetric(m.t.name, m.raw, m.at, substitute(args), m.dryRun, args, problems, ctx.secrets));
  const jobs = written
    .filter((m) => isJobMetric(m.raw))
    .map((m) => buildJobMetric(m.t.name, m.raw, m.at, substitute(args), m.dryRun, args, problems));
  checkUniqueNames([...metrics, ...jobs], problems);
  checkDryRunRules(rules, metrics, problems);
  out.push(...problems);
  if (problems.some((p) => p.severity === 'error')) return undefined;
  return {
    templates: templates.map((t) => t.name),
    metrics: metrics.filter((m): m is MetricSpec => m !== undefined),
    ...(jobs.length > 0 ? { jobs: jobs.filter((j): j is JobMetric => j !== undefined) } : {}),
    origin: originOf(request.at),
  };
}

/** Argo looks an AnalysisTemplate up in the Rollout's namespace; one written for another namespace is not it. */
function checkNamespaces(
  templates: readonly TemplateDoc[],
  ctx: ArgContext,
  request: AnalysisRequest,
  out: Diagnostic[],
) {
  const meta = (ctx.rollout as { metadata?: { namespace?: unknown } }).metadata;
  const ns = typeof meta?.namespace === 'string' ? meta.namespace : undefined;
  for (const t of templates)
    if (t.kind === 'AnalysisTemplate' && t.namespace && ns && t.namespace !== ns)
      out.push(
        diagnosticAt(
          originOf(request.at, 'templates'),
          `AnalysisTemplate ${t.name} is in namespace ${t.namespace}, the rollout in ${ns}: Argo would not find it; use a ClusterAnalysisTemplate or move it`,
        ),
      );
}

function findTemplates(request: AnalysisRequest, index: TemplateIndex, out: Diagnostic[]): TemplateDoc[] {
  return request.templates.flatMap((ref) => {
    const found = index.find(ref.templateName, ref.clusterScope);
    if (found) return [found];
    const kind = ref.clusterScope ? 'ClusterAnalysisTemplate' : 'AnalysisTemplate';
    const known = index.names();
    out.push(
      diagnosticAt(
        originOf(ref.at),
        `${kind} "${ref.templateName}" not found in the app source or the analysisTemplates directory of rollgen.yaml${known.length ? `; known: ${known.join(', ')}` : ''}`,
      ),
    );
    return [];
  });
}

/** `{{args.NAME}}` -> value; secret args are left for `measure` to fill from the environment. */
function substitute(args: ResolvedArgs): (text: string) => string {
  return (text) =>
    text.replace(/\{\{\s*args\.([\w.-]+)\s*\}\}/g, (whole, name: string) => args.values.get(name) ?? whole);
}

function dryRunOf(patterns: readonly string[], raw: Readonly<Record<string, unknown>>): boolean {
  return patterns.some((p) => safeRegExp(p)?.test(String(raw.name)) === true);
}

function safeRegExp(p: string): RegExp | undefined {
  try {
    return new RegExp(p);
  } catch {
    return undefined;
  }
}

/** Every dryRun rule must name metrics: a malformed one is refused, one matching nothing is a mistake (Argo refuses both). */
function checkDryRunRules(
  rules: readonly DryRunRule[],
  metrics: readonly (MetricSpec | undefined)[],
  out: Diagnostic[],
): void {
  for (const { metricName: p, at } of rules) {
    if (p === undefined) {
      out.push(
        diagnosticAt(originOf(at), 'dryRun entries are {metricName: <regular expression>}; this one has no metricName'),
      );
      continue;
    }
    const re = safeRegExp(p);
    const matches = re && metrics.some((m) => m && re.test(m.name));
    if (!matches)
      out.push(
        diagnosticAt(
          originOf(at),
          `dryRun metricName "${p}" ${re ? 'matches no metric' : 'is not a valid regular expression'}`,
        ),
      );
  }
}

function checkUniqueNames(metrics: readonly (MetricSpec | JobMetric | undefined)[], out: Diagnostic[]): void {
  const seen = new Set<string>();
  for (const m of metrics) {
    if (!m) continue;
    if (seen.has(m.name)) out.push(diagnosticAt(m.origin, `two metrics have the same name "${m.name}"`));
    seen.add(m.name);
  }
}
