import { gatesOf } from '../analysis/gates';
import type { GateAnalysis, JobMetric, RolloutAnalysis } from '../analysis/types';
import { KubeObject, cloneJson } from '../model/kube';
import { SYNC_WAVE } from '../model/track';
import { sha256Hex } from './sha256';

/** Which analysis and metric a committed Job measures (read by `rollgen analyze` and people). */
export const JOB_METRIC_ANNOTATION = 'rollgen.dev/analysis-metric';

/** Kubernetes copies a Job's name into its pods' `job-name` label: a label value, at most 63 characters. */
const MAX_NAME = 63;

export interface AnalysisJobsInput {
  readonly rollout: string;
  readonly namespace?: string;
  readonly analysis?: RolloutAnalysis;
  /** The rollgen step on which the rollout stands (its gate runs the analysis). */
  readonly step: number;
  /** The canary's pod template revision: a new version's Jobs never collide with an earlier one's. */
  readonly revision: string;
  /** The workloads' sync wave: the Jobs go two after (after the routes), so they measure a routed canary. */
  readonly wave: number;
}

/**
 * The Jobs of every `provider.job` metric of the analyses gating `step`, committed with that step and
 * gone from the next commit (Argo creates them when the AnalysisRun starts). Pure.
 */
export function renderAnalysisJobs(input: AnalysisJobsInput): KubeObject[] {
  return gatesOf(input.analysis, input.step).flatMap((gate) =>
    (gate.spec.jobs ?? []).map((job) => analysisJob(input, gate, job)),
  );
}

function analysisJob(input: AnalysisJobsInput, gate: GateAnalysis, job: JobMetric): KubeObject {
  const gateName = gate.kind === 'background' ? `background-step-${input.step}` : gate.id;
  const name = jobName([input.rollout, input.revision, gateName, job.name]);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      ...(input.namespace ? { namespace: input.namespace } : {}),
      ...(Object.keys(job.labels).length > 0 ? { labels: { ...job.labels } } : {}),
      annotations: {
        ...job.annotations,
        [JOB_METRIC_ANNOTATION]: `${gate.id}/${job.template}/${job.name}`,
        [SYNC_WAVE]: String(input.wave + 2),
      },
    },
    spec: cloneJson(job.spec),
  };
}

/**
 * A DNS-1123 label from its parts: lower case, other characters as `-`; one too long keeps its start
 * and ends in a hash of the whole, so two long names never meet. Exported for tests and `analyze`.
 */
export function jobName(parts: readonly string[]): string {
  const whole = parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  if (whole.length <= MAX_NAME) return whole;
  const hash = sha256Hex(parts.join('\u0000')).slice(0, 10);
  return `${whole.slice(0, MAX_NAME - hash.length - 1).replace(/-+$/, '')}-${hash}`;
}
