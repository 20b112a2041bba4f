import { Diagnostic } from '../diagnostics';
import { isObject } from '../model/kube';
import { ParsedDocument } from '../yaml/parse';
import { ArgInput, DryRunRule, Located, readArgs, readDryRun } from '../model/analysis-request';

/** An AnalysisTemplate or ClusterAnalysisTemplate as read from a source directory or the shared one. */
export interface TemplateDoc {
  readonly kind: 'AnalysisTemplate' | 'ClusterAnalysisTemplate';
  readonly name: string;
  readonly namespace?: string;
  readonly args: readonly ArgInput[];
  /** Metrics as written (args not yet substituted), each with where it is. */
  readonly metrics: readonly { readonly raw: Readonly<Record<string, unknown>>; readonly at: Located }[];
  readonly dryRun: readonly DryRunRule[];
  readonly doc: ParsedDocument;
}

export const TEMPLATE_KINDS = ['AnalysisTemplate', 'ClusterAnalysisTemplate'] as const;

/** Fields of a template's spec rollgen reads; others are warned about with their location. */
const SPEC_FIELDS = new Set(['metrics', 'args', 'dryRun', 'measurementRetention']);

export function readTemplate(doc: ParsedDocument, out: Diagnostic[]): TemplateDoc | undefined {
  const v = doc.value as Record<string, unknown>;
  const meta = isObject(v.metadata) ? v.metadata : {};
  const spec = isObject(v.spec) ? v.spec : undefined;
  const kind = v.kind as TemplateDoc['kind'];
  if (!spec || !Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    out.push({
      ...doc.locate(['spec']),
      message: `${kind} ${String(meta.name)} has no spec.metrics`,
      severity: 'error',
    });
    return undefined;
  }
  for (const k of Object.keys(spec).filter((k) => !SPEC_FIELDS.has(k)))
    out.push({
      ...doc.locate(['spec', k]),
      message: `${kind} field spec.${k} is ignored by rollgen`,
      severity: 'warning',
    });
  if (spec.measurementRetention !== undefined)
    out.push({
      ...doc.locate(['spec', 'measurementRetention']),
      message: 'measurementRetention is ignored: rollgen keeps the last 30 measurements of each metric',
      severity: 'warning',
    });
  const metrics = (spec.metrics as unknown[]).map((m, i) => ({
    raw: (isObject(m) ? m : {}) as Record<string, unknown>,
    at: { locate: doc.locate, path: ['spec', 'metrics', i] },
  }));
  // As Argo: a measurement with neither condition is Successful, whatever it measured (a judge such
  // as Kayenta decides by its own score). Said once per template.
  for (const { raw, at } of metrics)
    if (raw.successCondition === undefined && raw.failureCondition === undefined && !isJudge(raw.provider))
      out.push({
        ...doc.locate(at.path),
        message: `metric "${String(raw.name ?? '')}" has no successCondition or failureCondition, so every measurement passes (as in Argo): this gate checks nothing; add successCondition`,
        severity: 'warning',
      });
  return {
    kind,
    name: String(meta.name),
    ...(typeof meta.namespace === 'string' ? { namespace: meta.namespace } : {}),
    args: readArgs(Array.isArray(spec.args) ? spec.args : [], doc.locate, ['spec', 'args']),
    metrics,
    dryRun: readDryRun(Array.isArray(spec.dryRun) ? spec.dryRun : [], doc.locate, ['spec', 'dryRun']),
    doc,
  };
}

/** The templates one app can use: its own and the shared directory's (its own win on a name clash, with a warning). */
export class TemplateIndex {
  private readonly byKey = new Map<string, TemplateDoc>();

  constructor(own: readonly TemplateDoc[], shared: readonly TemplateDoc[], out: Diagnostic[]) {
    for (const t of [...own, ...shared]) {
      const key = `${t.kind}/${t.name}`;
      const first = this.byKey.get(key);
      if (!first) this.byKey.set(key, t);
      else
        out.push({
          ...t.doc.origin,
          message: `${t.kind} ${t.name} is defined twice (first at ${first.doc.origin.file}:${first.doc.origin.line}); the first is used`,
          severity: own.includes(t) ? 'error' : 'warning',
        });
    }
  }

  find(name: string, clusterScope: boolean): TemplateDoc | undefined {
    return this.byKey.get(`${clusterScope ? 'ClusterAnalysisTemplate' : 'AnalysisTemplate'}/${name}`);
  }

  names(): string[] {
    return [...this.byKey.keys()].sort();
  }
}

/** A provider whose own verdict is the phase, not a condition over its result (Kayenta's score, a Job's exit). */
const isJudge = (provider: unknown): boolean =>
  isObject(provider) && (provider.kayenta !== undefined || provider.job !== undefined);
