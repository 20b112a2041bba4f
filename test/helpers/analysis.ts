import { AnalysisSpec, Condition, MetricSpec } from '../../src/analysis/types';

export const ORIGIN = { file: 't.yaml', line: 1, col: 1 };

export const condition = (source: string): Condition => ({ source, origin: ORIGIN });

/** A metric with Argo's defaults and a web provider; `over` sets what a test is about. */
export function metricSpec(over: Partial<MetricSpec> = {}): MetricSpec {
  return {
    name: 'm',
    template: 't',
    origin: ORIGIN,
    failureLimit: 0,
    inconclusiveLimit: 0,
    consecutiveErrorLimit: 4,
    consecutiveSuccessLimit: 0,
    dryRun: false,
    provider: {
      kind: 'web',
      url: 'http://x',
      method: 'GET',
      headers: [],
      timeoutSeconds: 1,
      insecure: false,
      secretArgs: [],
    },
    ...over,
  };
}

export const analysisSpec = (...metrics: MetricSpec[]): AnalysisSpec => ({ templates: ['t'], metrics, origin: ORIGIN });
