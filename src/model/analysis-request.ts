import { Origin } from '../diagnostics';
import { isObject } from '../model/kube';

type Path = readonly (string | number)[];

/** A field path inside a source document and how to turn it into a position. */
export interface Located {
  readonly locate: (path: Path) => Origin;
  readonly path: Path;
}

export interface TemplateRef {
  readonly templateName: string;
  readonly clusterScope: boolean;
  readonly at: Located;
}

/** An arg as written (in a template, a Rollout's analysis or rollgen.yaml); `at` points at the arg. */
export interface ArgInput {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: Readonly<Record<string, unknown>>;
  readonly at: Located;
}

/** What asks for an analysis: a Rollout step `analysis`, `canary.analysis`, or rollgen.yaml's `analysis:` entry. */
export interface AnalysisRequest {
  readonly templates: readonly TemplateRef[];
  readonly args: readonly ArgInput[];
  /** Metric name patterns (regular expressions, as Argo matches them). */
  readonly dryRun: readonly DryRunRule[];
  /** Fields written beside those rollgen reads (e.g. analysisRunMetadata): warned about where they are. */
  readonly ignored: readonly string[];
  readonly at: Located;
}

/** Fields of a request rollgen reads, or that its caller reads (startingStep, step). */
const REQUEST_FIELDS = new Set(['templates', 'args', 'dryRun', 'startingStep', 'step']);

/** Reads `{templates, args, dryRun}` (Argo's RolloutAnalysis shape) at `path` of a document. Pure. */
export function readRequest(value: unknown, locate: Located['locate'], path: Path): AnalysisRequest {
  const v = isObject(value) ? value : {};
  const list = (k: string) => (Array.isArray(v[k]) ? (v[k] as unknown[]) : []);
  return {
    templates: list('templates').map((t, i) => {
      const e = isObject(t) ? t : {};
      return {
        templateName: typeof e.templateName === 'string' ? e.templateName : '',
        clusterScope: e.clusterScope === true,
        at: { locate, path: [...path, 'templates', i] },
      };
    }),
    args: readArgs(list('args'), locate, [...path, 'args']),
    dryRun: readDryRun(list('dryRun'), locate, [...path, 'dryRun']),
    ignored: Object.keys(v).filter((k) => !REQUEST_FIELDS.has(k)),
    at: { locate, path },
  };
}

/** One `dryRun` entry; `metricName` is undefined when the entry has none, so it is refused where it is written. */
export interface DryRunRule {
  readonly metricName?: string;
  readonly at: Located;
}

/** `dryRun: [{metricName: regexp}]`; an entry of another shape must not become the empty pattern, which matches every metric. */
export function readDryRun(list: readonly unknown[], locate: Located['locate'], path: Path): DryRunRule[] {
  return list.map((d, i) => ({
    ...(isObject(d) && typeof d.metricName === 'string' ? { metricName: d.metricName } : {}),
    at: { locate, path: [...path, i] },
  }));
}

export function readArgs(list: readonly unknown[], locate: Located['locate'], path: Path): ArgInput[] {
  return list.map((a, i) => {
    const e = isObject(a) ? a : {};
    return {
      name: typeof e.name === 'string' ? e.name : '',
      ...(e.value !== undefined && e.value !== null ? { value: String(e.value) } : {}),
      ...(isObject(e.valueFrom) ? { valueFrom: e.valueFrom } : {}),
      at: { locate, path: [...path, i] },
    };
  });
}

export const originOf = (at: Located, ...more: (string | number)[]): Origin => at.locate([...at.path, ...more]);
