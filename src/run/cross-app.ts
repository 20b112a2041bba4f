import type { RouteClaim } from '../../generators/types';
import { Diagnostic } from '../diagnostics';
import { InputError } from '../errors';
import { generatorContext } from '../render/render-rollout';
import { LoadedApp } from '../spec/load-app';

/** Repo-wide rules: two rollouts may not claim the same routing slot (e.g. one nginx canary per host+path). */
export function checkAcrossApps(apps: readonly LoadedApp[]): void {
  const owners = new Map<string, { app: string; rollout: string; claim: RouteClaim }>();
  const problems: Diagnostic[] = [];
  for (const app of apps) {
    for (const r of app.rollouts) {
      for (const p of r.providers) {
        for (const claim of p.generator.claims(generatorContext(app.name, r.spec, app.resources, p))) {
          const first = owners.get(claim.key);
          if (!first) owners.set(claim.key, { app: app.name, rollout: r.spec.name, claim });
          else if (first.app !== app.name || first.rollout !== r.spec.name) problems.push(conflict(first, app.name, r.spec.name, claim));
        }
      }
    }
  }
  if (problems.length > 0) throw new InputError(problems);
}

function conflict(first: { app: string; rollout: string; claim: RouteClaim }, app: string, rollout: string, claim: RouteClaim): Diagnostic {
  return {
    ...claim.origin,
    message: `app ${app}, rollout ${rollout} and app ${first.app}, rollout ${first.rollout} (${first.claim.origin.file}:${first.claim.origin.line}) both need a canary for ${claim.description}; only one canary per route can work, so give one app its own host or path`,
    severity: 'error',
  };
}
