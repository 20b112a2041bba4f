import type { GateAnalysis } from '../analysis/types';
import { jobName } from '../render/analysis-jobs';
import type { LoadedRollout } from '../spec/loaded-app';
import { sourcePod } from '../state/pods';
import type { AppStatus } from '../state/status';
import type { TrackLabel } from '../model/track';

/** A job metric of a gate: rollgen does not measure it, the cluster runs its Job (src/render/analysis-jobs.ts). */
export interface ClusterMeasured {
  readonly rollout: string;
  readonly step: number;
  readonly id: string;
  readonly metric: string;
  readonly job: string;
  readonly namespace?: string;
}

/** The job metrics of one gate, with the name of the Job the step's commit carries. Pure. */
export function clusterMeasured(
  r: LoadedRollout,
  gate: GateAnalysis,
  step: number,
  status: AppStatus | undefined,
  track: TrackLabel,
): ClusterMeasured[] {
  const recorded = status?.rollouts.find((s) => s.name === r.spec.name)?.canaryRevision;
  const revision = recorded ?? sourcePod(r, track).revision;
  const gateName = gate.kind === 'background' ? `background-step-${step}` : gate.id;
  return (gate.spec.jobs ?? []).map((j) => ({
    rollout: r.spec.name,
    step,
    id: gate.id,
    metric: j.name,
    job: jobName([r.spec.name, revision, gateName, j.name]),
    ...(r.spec.namespace ? { namespace: r.spec.namespace } : {}),
  }));
}

/** What `rollgen analyze` prints for a job metric instead of measuring it. */
export function describeClusterMeasured(app: string, j: ClusterMeasured): string {
  const ns = j.namespace ? ` -n ${j.namespace}` : '';
  return (
    `${app} rollout ${j.rollout} step ${j.step}: job metric "${j.metric}" is measured by the cluster, not by rollgen: ` +
    `Job ${j.job} is committed with step ${j.step} and its result is the GitOps engine's health of that commit ` +
    `(the health gate of rollgen.yaml); see it with \`kubectl get job ${j.job}${ns}\`\n`
  );
}
