import { Diagnostic, Origin, diagnosticAt } from '../diagnostics';
import { ResolvedArgs, unresolvedArg } from './args';
import { compile } from './expression';
import { buildProvider } from './provider-spec';
import { MetricSecrets } from './credentials';
import { Located, originOf } from '../model/analysis-request';
import { Condition, MetricSpec } from './types';
import { suggestName } from '../suggest';

const METRIC_FIELDS = new Set([
  'name',
  'interval',
  'initialDelay',
  'count',
  'successCondition',
  'failureCondition',
  'failureLimit',
  'inconclusiveLimit',
  'consecutiveErrorLimit',
  'consecutiveSuccessLimit',
  'provider',
]);

/** Argo's default consecutiveErrorLimit. */
export const DEFAULT_CONSECUTIVE_ERROR_LIMIT = 4;

/** One template metric -> MetricSpec with args substituted, durations parsed, conditions compiled, Argo's ValidateMetric rules. */
export function buildMetric(
  template: string,
  raw: Readonly<Record<string, unknown>>,
  at: Located,
  fill: (text: string) => string,
  dryRun: boolean,
  args: ResolvedArgs,
  out: Diagnostic[],
  secrets?: MetricSecrets,
): MetricSpec | undefined {
  const before = out.length;
  const where = (...f: string[]) => originOf(at, ...f);
  const name = String(raw.name ?? '');
  for (const k of Object.keys(raw).filter((k) => !METRIC_FIELDS.has(k))) {
    const near = suggestName(k, [...METRIC_FIELDS]);
    out.push(
      diagnosticAt(
        where(k),
        `metric field ${k} is ignored by rollgen${near ? `; did you mean ${near}?` : ''}`,
        'warning',
      ),
    );
  }
  const read = { fill, out };
  const int = (k: string, fallback?: number) => intField(raw[k], where(k), k, read) ?? fallback;
  const duration = (k: string) => durationField(raw[k], where(k), k, read);
  const condition = (k: string) => conditionField(raw[k], fill, where(k), k, args, out);
  const spec = {
    name,
    template,
    origin: where(),
    interval: duration('interval'),
    count: int('count'),
    initialDelay: duration('initialDelay'),
    successCondition: condition('successCondition'),
    failureCondition: condition('failureCondition'),
    failureLimit: int('failureLimit', 0)!,
    inconclusiveLimit: int('inconclusiveLimit', 0)!,
    consecutiveErrorLimit: int('consecutiveErrorLimit', DEFAULT_CONSECUTIVE_ERROR_LIMIT)!,
    consecutiveSuccessLimit: int('consecutiveSuccessLimit', 0)!,
    dryRun,
  };
  const provider = buildProvider(raw.provider, at, fill, args, out, secrets);
  if (provider?.kind === 'kayenta') judgeChecks(spec, provider.lookback, where, out);
  validate(spec, where(), out);
  if (out.slice(before).some((d) => d.severity === 'error') || !provider) return undefined;
  const defined = Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined));
  return { ...defined, provider } as MetricSpec;
}

type Draft = Omit<MetricSpec, 'provider'>;

/**
 * Kayenta is a judge: its score against the thresholds decides, so conditions are not read (Argo
 * ignores them: warned here), and it judges the metric's last interval unless `lookback` (Argo
 * fails every measurement without one: refused here).
 */
function judgeChecks(m: Draft, lookback: boolean, where: (...f: string[]) => Origin, out: Diagnostic[]): void {
  for (const field of ['successCondition', 'failureCondition'] as const)
    if (m[field])
      out.push(
        diagnosticAt(where(field), `${field} is not used: Kayenta's score against its threshold decides`, 'warning'),
      );
  if (m.interval === undefined && !lookback)
    out.push(
      diagnosticAt(
        where(),
        `metric "${m.name}": kayenta judges the metric's interval; add interval, or lookback: true`,
      ),
    );
}

/** Argo's ValidateMetric. */
function validate(m: Draft, origin: Origin, out: Diagnostic[]): void {
  const err = (message: string) => out.push(diagnosticAt(origin, `metric "${m.name}": ${message}`));
  if (m.consecutiveSuccessLimit < 0) err('consecutiveSuccessLimit must be >= 0');
  if (m.failureLimit < -1) err('failureLimit must be >= 0, or -1 to be disabled');
  if (m.consecutiveSuccessLimit === 0 && m.failureLimit === -1)
    err('failureLimit and consecutiveSuccessLimit cannot both be disabled');
  if (m.inconclusiveLimit < 0) err('inconclusiveLimit must be >= 0');
  if (m.consecutiveErrorLimit < 0) err('consecutiveErrorLimit must be >= 0');
  const count = m.count ?? 0;
  if (count > 0 && m.failureLimit >= 0 && count < m.failureLimit + m.consecutiveSuccessLimit)
    err(
      `count (${count}) must be >= failureLimit + consecutiveSuccessLimit (${m.failureLimit} + ${m.consecutiveSuccessLimit})`,
    );
  if (count > 0 && m.failureLimit < 0 && count < m.consecutiveSuccessLimit)
    err('count must be >= consecutiveSuccessLimit');
  if (count > 0 && count < m.inconclusiveLimit) err('count must be >= inconclusiveLimit');
  if (count > 1 && m.interval === undefined) err('interval must be specified when count > 1');
  if (m.name === '') err('a metric needs a name');
}

/** How a field is read: args substituted by `fill`, problems to `out`. */
interface Reader {
  readonly fill: (s: string) => string;
  readonly out: Diagnostic[];
}

function intField(v: unknown, at: Origin, field: string, { fill, out }: Reader): number | undefined {
  if (v === undefined || v === null) return undefined;
  const text = typeof v === 'string' ? fill(v) : v;
  const n = typeof text === 'number' ? text : /^-?\d+$/.test(String(text).trim()) ? Number(text) : NaN;
  if (Number.isInteger(n)) return n;
  out.push(diagnosticAt(at, `${field} must be an integer, got ${JSON.stringify(text)}`));
  return undefined;
}

// µ is written \u00b5 in the patterns: the bundle stays ASCII, which bin/load-bundle.js reads as latin1.
const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** Go durations as Argo writes them: `30s`, `5m`, `1h30m`, `500ms`. */
export function parseGoDuration(text: string): number | undefined {
  const t = text.trim();
  if (t === '0') return 0;
  if (!/^(\d+(\.\d+)?(ns|us|\u00b5s|ms|s|m|h))+$/.test(t)) return undefined;
  return [...t.matchAll(/(\d+(?:\.\d+)?)(ns|us|\u00b5s|ms|s|m|h)/g)].reduce(
    (s, m) => s + Number(m[1]) * UNIT_SECONDS[m[2]],
    0,
  );
}

function durationField(v: unknown, at: Origin, field: string, { fill, out }: Reader): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const seconds = parseGoDuration(fill(String(v)));
  if (seconds !== undefined) return seconds;
  out.push(diagnosticAt(at, `${field} "${String(v)}" is not a duration such as 30s, 5m or 1h30m`));
  return undefined;
}

function conditionField(
  v: unknown,
  fill: (s: string) => string,
  at: Origin,
  field: string,
  args: ResolvedArgs,
  out: Diagnostic[],
): Condition | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const source = fill(String(v));
  const leftover = unresolvedArg(source, args);
  if (leftover)
    out.push(diagnosticAt(at, `${field} uses {{args.${leftover}}}, which no template declares or which is secret`));
  const compiled = compile(source);
  if ('error' in compiled)
    out.push(diagnosticAt(at, `${field} "${source}" is not a valid expression: ${compiled.error}`));
  return { source, origin: at };
}
