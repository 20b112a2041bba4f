import { InputError } from '../errors';
import type { Diagnostic } from '../diagnostics';
import type { LoadedEntry } from '../app/load-repo';

/**
 * A job metric's result is the GitOps engine's health report on the commit that carries its Job: an
 * app with no health gate would pass the step without it. Refused at each job metric, all at once.
 */
export function refuseUnreportedJobs(entries: readonly LoadedEntry[]): void {
  const problems: Diagnostic[] = entries
    .filter((e) => !e.loc.health)
    .flatMap((e) =>
      e.app.rollouts
        .flatMap((r) => {
          const a = r.analysis;
          const specs = [
            ...Object.values(a?.steps ?? {}).flat(),
            ...Object.values(a?.experiments ?? {}).flat(),
            ...(a?.background ? [a.background.spec] : []),
          ];
          return specs.flatMap((s) => s.jobs ?? []);
        })
        .map((j) => ({
          ...j.origin,
          severity: 'error' as const,
          message: `app ${e.loc.name}: job metric "${j.name}" is measured by its Job in the cluster, and rollgen reads the result from the GitOps engine's health report; give the app a health gate in rollgen.yaml (health.statuses, e.g. continuous-delivery/{name} for Argo CD) so a failed Job fails the step`,
        })),
    );
  if (problems.length > 0) throw new InputError(problems);
}
