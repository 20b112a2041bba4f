import { Value } from './builtins';
import { compile, describe, evaluate, Node } from './expression';
import { Condition, MeasurementPhase, MetricSpec } from './types';

export interface Assessment {
  readonly phase: MeasurementPhase;
  readonly message?: string;
}

/** Argo's EvaluateResult: the phase of one measurement from its result and the metric's conditions. Pure. */
export function assess(metric: MetricSpec, result: Value): Assessment {
  const success = metric.successCondition ? run('successCondition', metric.successCondition, result) : undefined;
  if (success && 'error' in success) return { phase: 'Error', message: success.error };
  const failure = metric.failureCondition ? run('failureCondition', metric.failureCondition, result) : undefined;
  if (failure && 'error' in failure) return { phase: 'Error', message: failure.error };
  if (!success && !failure) return { phase: 'Successful' };
  // Without a failure condition, not meeting the success condition fails, and the reverse.
  const failed = failure ? failure.value : !success!.value;
  const succeeded = success ? success.value : !failure!.value;
  if (failed) return { phase: 'Failed' };
  return succeeded ? { phase: 'Successful' } : { phase: 'Inconclusive' };
}

function run(kind: string, c: Condition, result: Value): { value: boolean } | { error: string } {
  const compiled = compile(c.source);
  if ('error' in compiled) return { error: `could not evaluate ${kind} "${c.source}": ${compiled.error}` };
  try {
    const v = evaluate(compiled.node as Node, { result });
    if (typeof v !== 'boolean') throw new Error(`expected bool, but got ${describe(v)}`);
    return { value: v };
  } catch (e) {
    const empty = result === null || result === undefined || (Array.isArray(result) && result.length === 0);
    const why = empty
      ? 'metric result is nil or empty: no data returned from the metric provider'
      : (e as Error).message;
    return { error: `could not evaluate ${kind} "${c.source}": ${why}` };
  }
}
