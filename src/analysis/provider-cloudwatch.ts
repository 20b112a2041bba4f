import { diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { ProviderFields, durationField, refuseUnknown, textAt } from './provider-fields';
import { CloudWatchProvider } from './types';

const QUERY_FIELDS = ['id', 'expression', 'label', 'metricStat', 'period', 'returnData'];
const STAT_FIELDS = ['metric', 'period', 'stat', 'unit'];
const METRIC_FIELDS = ['dimensions', 'metricName', 'namespace'];

type Path = readonly (string | number)[];

/**
 * Argo's `provider.cloudWatch`: `interval` (default 5m) and `metricDataQueries`, turned into
 * GetMetricData's own shape as Argo's convertType does. Credentials and region are the AWS SDK's
 * (the environment, as Argo's controller reads its own). Pure.
 */
export function cloudWatchProvider(f: ProviderFields): CloudWatchProvider {
  refuseUnknown(f, ['interval', 'metricDataQueries']);
  const list = f.body.metricDataQueries;
  if (!Array.isArray(list) || list.length === 0)
    f.out.push(
      diagnosticAt(f.here(), 'cloudWatch provider needs metricDataQueries (a list of {id, expression or metricStat})'),
    );
  return {
    kind: 'cloudwatch',
    intervalSeconds: durationField(f, 'interval', 300),
    metricDataQueries: (Array.isArray(list) ? list : []).map((q, i) => query(f, q, ['metricDataQueries', i])),
    timeoutSeconds: 30,
    secretArgs: f.args.secrets,
  };
}

function query(f: ProviderFields, q: unknown, at: Path): Record<string, unknown> {
  if (!isObject(q)) {
    f.out.push(diagnosticAt(f.here(...at), 'a metricDataQuery must be a map with id and expression or metricStat'));
    return {};
  }
  unknownAt(f, q, at, QUERY_FIELDS);
  const text = (field: string, required = false) => textAt(f, q[field], [...at, field], required);
  if (q.expression === undefined && q.metricStat === undefined)
    f.out.push(diagnosticAt(f.here(...at), 'a metricDataQuery needs expression or metricStat'));
  return compact({
    Id: text('id', true),
    Expression: text('expression'),
    Label: text('label'),
    MetricStat: q.metricStat === undefined ? undefined : metricStat(f, q.metricStat, [...at, 'metricStat']),
    Period: q.period === undefined ? undefined : period(f, q.period, [...at, 'period']),
    ReturnData: q.returnData === undefined ? undefined : q.returnData === true,
  });
}

function metricStat(f: ProviderFields, s: unknown, at: Path): Record<string, unknown> {
  if (!isObject(s) || !isObject(s.metric)) {
    f.out.push(diagnosticAt(f.here(...at), 'metricStat needs metric: {namespace, metricName, dimensions}'));
    return {};
  }
  unknownAt(f, s, at, STAT_FIELDS);
  unknownAt(f, s.metric, [...at, 'metric'], METRIC_FIELDS);
  const m = s.metric;
  const dims = Array.isArray(m.dimensions) ? m.dimensions : [];
  return compact({
    Metric: compact({
      Namespace: textAt(f, m.namespace, [...at, 'metric', 'namespace'], false),
      MetricName: textAt(f, m.metricName, [...at, 'metric', 'metricName'], true),
      Dimensions:
        m.dimensions === undefined
          ? undefined
          : dims.map((d, i) => ({
              Name: textAt(f, isObject(d) ? d.name : undefined, [...at, 'metric', 'dimensions', i, 'name'], true),
              Value: textAt(f, isObject(d) ? d.value : undefined, [...at, 'metric', 'dimensions', i, 'value'], true),
            })),
    }),
    Period: period(f, s.period, [...at, 'period']),
    Stat: textAt(f, s.stat, [...at, 'stat'], true),
    Unit: textAt(f, s.unit, [...at, 'unit'], false),
  });
}

/** int-or-string seconds, as Argo's IntValue reads it. */
function period(f: ProviderFields, v: unknown, at: Path): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(f.fill(v)) ? Number(f.fill(v)) : NaN;
  if (Number.isInteger(n) && n > 0) return n;
  f.out.push(diagnosticAt(f.here(...at), `period must be a positive number of seconds, got ${JSON.stringify(v)}`));
  return undefined;
}

function unknownAt(f: ProviderFields, v: Readonly<Record<string, unknown>>, at: Path, known: readonly string[]): void {
  for (const k of Object.keys(v).filter((k) => !known.includes(k)))
    f.out.push(
      diagnosticAt(f.here(...at, k), `cloudWatch field ${k} is not an Argo field; known: ${known.join(', ')}`),
    );
}

const compact = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
