import type { RouteClaim } from '../../generators/types';
import { getGenerator } from '../../generators/registry';
import { Diagnostic } from '../diagnostics';
import { InputError } from '../errors';
import { generatorContext } from '../render/render-rollout';
import { RepoPeers, repoPeers } from '../render/repo-peers';
import { LoadedApp } from '../spec/load-app';

/**
 * Repo-wide rules over every app: two rollouts may not claim the same routing slot (e.g. one nginx
 * canary per host+path), and each provider's own repo check (e.g. ALB orders on a listener) holds.
 */
export function checkAcrossApps(apps: readonly LoadedApp[], peers: RepoPeers = repoPeers(apps)): void {
  const problems = [...claimConflicts(apps, peers), ...providerChecks(peers)];
  if (problems.length > 0) throw new InputError(problems);
}

function claimConflicts(apps: readonly LoadedApp[], peers: RepoPeers): Diagnostic[] {
  const owners = new Map<string, { app: string; rollout: string; claim: RouteClaim }>();
  const problems: Diagnostic[] = [];
  for (const app of apps) {
    for (const r of app.rollouts) {
      for (const p of r.providers) {
        for (const claim of p.generator.claims(generatorContext(app.name, r.spec, app.resources, p, peers))) {
          const first = owners.get(claim.key);
          if (!first) owners.set(claim.key, { app: app.name, rollout: r.spec.name, claim });
          else if (first.app !== app.name || first.rollout !== r.spec.name) problems.push(conflict(first, app.name, r.spec.name, claim));
        }
      }
    }
  }
  return problems;
}

function providerChecks(peers: RepoPeers): Diagnostic[] {
  return [...peers].sort(([a], [b]) => a.localeCompare(b, 'en')).flatMap(([id, list]) => getGenerator(id)?.checkRepo?.(list) ?? []);
}

function conflict(first: { app: string; rollout: string; claim: RouteClaim }, app: string, rollout: string, claim: RouteClaim): Diagnostic {
  return {
    ...claim.origin,
    message: `app ${app}, rollout ${rollout} and app ${first.app}, rollout ${first.rollout} (${first.claim.origin.file}:${first.claim.origin.line}) both need a canary for ${claim.description}; only one canary per route can work, so give one app its own host or path`,
    severity: 'error',
  };
}
