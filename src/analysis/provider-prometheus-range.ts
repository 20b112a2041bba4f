import { diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { parseGoDuration } from './metric';
import { ProviderFields, textAt } from './provider-fields';
import { parseTimeExpr } from './time-expression';
import { PrometheusRange, TimeExpr } from './types';

const FIELDS = ['start', 'end', 'step'];
/** Prometheus refuses a range query of more points than this ("exceeded maximum resolution"). */
const MAX_POINTS = 11000;

/**
 * Argo's `prometheus.rangeQuery`: `start` and `end` (time expressions, evaluated against the clock when
 * measuring) and `step`. The query then runs over /api/v1/query_range; each problem is refused at its field. Pure.
 */
export function prometheusRange(f: ProviderFields): PrometheusRange | undefined {
  const raw = f.body.rangeQuery;
  if (raw === undefined || raw === null) return undefined;
  const at = (...p: string[]) => f.here('rangeQuery', ...p);
  if (!isObject(raw)) {
    f.out.push(diagnosticAt(at(), 'prometheus rangeQuery must be a map of start, end and step'));
    return undefined;
  }
  for (const k of Object.keys(raw).filter((k) => !FIELDS.includes(k)))
    f.out.push(diagnosticAt(at(k), `rangeQuery field ${k} is not an Argo field; known: ${FIELDS.join(', ')}`));
  const time = (field: 'start' | 'end'): TimeExpr | undefined => {
    const text = textAt(f, raw[field], ['rangeQuery', field], true);
    if (text === undefined) return undefined;
    const parsed = parseTimeExpr(text);
    if ('error' in parsed) f.out.push(diagnosticAt(at(field), `rangeQuery.${field}: ${parsed.error}`));
    return 'error' in parsed ? undefined : parsed;
  };
  const start = time('start');
  const end = time('end');
  const stepText = textAt(f, raw.step, ['rangeQuery', 'step'], true);
  const stepSeconds = stepText === undefined ? undefined : parseGoDuration(stepText);
  if (stepText !== undefined && !(stepSeconds && stepSeconds > 0))
    f.out.push(diagnosticAt(at('step'), `rangeQuery.step "${stepText}" is not a positive duration such as 30s or 1m`));
  if (!start || !end || !stepSeconds) return undefined;
  if (start.base === end.base) {
    const span = end.offsetSeconds - start.offsetSeconds;
    if (span < 0)
      f.out.push(diagnosticAt(at('end'), 'rangeQuery.end is before rangeQuery.start: Prometheus refuses it'));
    else if (span / stepSeconds > MAX_POINTS)
      f.out.push(
        diagnosticAt(
          at('step'),
          `rangeQuery asks for ${Math.floor(span / stepSeconds)} points per series; Prometheus answers at most ${MAX_POINTS}: use a longer step`,
        ),
      );
  }
  return { start, end, stepSeconds };
}
