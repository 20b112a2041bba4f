import * as path from 'path';
import type { Diagnostic } from '../diagnostics';
import { CANARY_SUFFIX, REVISION_ANNOTATION } from '../model/track';
import type { LoadedApp, LoadedRollout } from '../spec/loaded-app';
import type { OutputSnapshot } from './app-state';

/**
 * A Deployment renamed in the source (metadata.name and the Rollout's workloadRef.name): the output
 * still runs it under the old name, and no Deployment of the new name is there. Going on would
 * render a new Deployment whose pods all start at once, with the source's version (new or not),
 * while the old one's pods are pruned: no canary, and two full sets of pods meanwhile. So it is
 * refused at the new name, saying which name the output runs. Pure.
 */
export function renamedWorkloads(app: LoadedApp, output: OutputSnapshot): Diagnostic[] {
  const orphans = orphanDeployments(app, output);
  if (orphans.length === 0) return renamedRollouts(app, output);
  const missing = app.rollouts.filter(
    (r) => !output.resources.find('Deployment', r.spec.workload.name, r.spec.namespace),
  );
  return missing.map((r) => renamedDiagnostic(app, r, orphans));
}

/** Deployments rollgen rendered into the output that no rollout of the source names any more. */
function orphanDeployments(app: LoadedApp, output: OutputSnapshot): string[] {
  const owned = new Set(app.rollouts.flatMap((r) => [r.spec.workload.name, `${r.spec.workload.name}${CANARY_SUFFIX}`]));
  const rendered = new Set(output.renderedFiles ?? []);
  return output.resources.items
    .filter((i) => i.object.kind === 'Deployment' && i.object.metadata.annotations?.[REVISION_ANNOTATION])
    .filter((i) => rendered.size === 0 || rendered.has(path.basename(i.origin.file)))
    .map((i) => i.object.metadata.name)
    .filter((name) => !owned.has(name) && !name.endsWith(CANARY_SUFFIX));
}

function renamedDiagnostic(app: LoadedApp, r: LoadedRollout, orphans: readonly string[]): Diagnostic {
  const name = r.spec.workload.name;
  const source = app.resources.find('Deployment', name, r.spec.namespace);
  const at = source?.locate(['metadata', 'name']) ?? r.spec.workload.origin ?? r.spec.origin;
  const old = orphans.map((o) => `"${o}"`).join(' or ');
  return {
    ...at,
    severity: 'error',
    message:
      `Deployment "${name}" of rollout ${r.spec.name} is not in the output, which runs ${old}: was it renamed? ` +
      `A new name is a new Deployment, whose pods would all start at once, with no canary, while the old ones are removed; ` +
      `rollgen does not rename a running Deployment. Give it back its name (${old}) here and in the Rollout's ` +
      `workloadRef.name; nothing was written`,
  };
}

/**
 * A Rollout renamed in the source while its Deployment runs in the output: the status records the
 * old name, so the new one would read as a first deploy and put the source's version on every
 * stable pod at once. Refused at the new name, saying which name the status records.
 */
function renamedRollouts(app: LoadedApp, output: OutputSnapshot): Diagnostic[] {
  const known = new Set([...app.rollouts.map((r) => r.spec.name), ...(app.disabledRollouts ?? [])]);
  const stale = (output.status?.rollouts ?? []).map((s) => s.name).filter((n) => !known.has(n));
  if (stale.length === 0) return [];
  const old = stale.map((n) => `"${n}"`).join(' or ');
  return app.rollouts
    .filter((r) => !output.status!.rollouts.some((s) => s.name === r.spec.name))
    .filter((r) => output.resources.find('Deployment', r.spec.workload.name, r.spec.namespace))
    .map((r) => ({
      ...(app.resources.find('Rollout', r.spec.name, r.spec.namespace)?.locate(['metadata', 'name']) ?? r.spec.origin),
      severity: 'error' as const,
      message:
        `rollout ${r.spec.name} is not in the output's status, which records ${old}, while the output runs its Deployment "${r.spec.workload.name}": was it renamed? ` +
        `Under a new name it would read as a first deploy and put this version on every pod at once, with no canary. ` +
        `Give the Rollout back its name (${old}); nothing was written`,
    }));
}
