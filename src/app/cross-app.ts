import type { RouteClaim } from '../contract/generator';
import { getGenerator } from '../../generators/registry';
import { Diagnostic, compareText } from '../diagnostics';
import { InputError } from '../errors';
import { generatorContext } from '../render/render-rollout';
import { RepoPeers, byCluster, repoPeers } from '../render/repo-peers';
import type { LoadedApp } from '../spec/loaded-app';

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
  const clusterOf = new Map(apps.map((a) => [a.name, a.cluster ?? ''] as const));
  for (const { app, owner, claim } of everyClaim(apps, peers)) {
    // Fleet targets in different clusters share no route (docs/fleet.md).
    const key = `${clusterOf.get(app)}\u0000${claim.key}`;
    const first = owners.get(key);
    if (!first) owners.set(key, { app, rollout: owner, claim });
    else if (first.app !== app || first.rollout !== owner) problems.push(conflict(first, app, owner, claim));
  }
  return problems;
}

/**
 * Route claims of every rollout and every TrafficRouting. A TrafficRouting renders over its
 * members' output, so a route it shares with a rollout would silently lose that rollout's weights.
 */
export function* everyClaim(
  apps: readonly LoadedApp[],
  peers: RepoPeers,
): Generator<{ app: string; owner: string; claim: RouteClaim }> {
  for (const app of apps) {
    const routers = [
      ...app.rollouts.map((r) => ({ owner: `rollout ${r.spec.name}`, spec: r.spec, providers: r.providers })),
      ...app.routings.map((r) => ({
        owner: `TrafficRouting ${r.spec.name}`,
        spec: r.spec.rollout,
        providers: r.providers,
      })),
    ];
    for (const { owner, spec, providers } of routers) {
      for (const p of providers) {
        for (const claim of p.generator.claims(generatorContext(app.name, spec, app.resources, p, peers)))
          yield { app: app.name, owner, claim };
      }
    }
  }
}

function providerChecks(peers: RepoPeers): Diagnostic[] {
  return [...peers]
    .sort(([a], [b]) => compareText(a, b))
    .flatMap(([id, list]) => byCluster(list).flatMap((c) => getGenerator(id)?.checkRepo?.(c) ?? []));
}

function conflict(
  first: { app: string; rollout: string; claim: RouteClaim },
  app: string,
  owner: string,
  claim: RouteClaim,
): Diagnostic {
  return {
    ...claim.origin,
    message: `app ${app}, ${owner} and app ${first.app}, ${first.rollout} (${first.claim.origin.file}:${first.claim.origin.line}) both need a canary for ${claim.description}; only one canary per route can work, so ${app === first.app ? 'let one of them route it' : 'give one app its own host or path'}`,
    severity: 'error',
  };
}

/** `validate`: each provider's check of what the apps' committed outputs hold together. */
export function committedProblems(peers: RepoPeers): Diagnostic[] {
  return byProvider(peers).flatMap(([id, list]) =>
    byCluster(list).flatMap((c) => getGenerator(id)?.checkCommitted?.(c) ?? []),
  );
}

/** `plan`/`validate`: each provider's repo-wide allocation, e.g. the ALB order map per listener. */
export function describeAllocations(peers: RepoPeers): string[] {
  return byProvider(peers).flatMap(([id, list]) =>
    byCluster(list).flatMap((c) => {
      const lines = [...(getGenerator(id)?.describeRepo?.(c) ?? [])];
      return c[0]?.cluster !== undefined && lines.length > 0 ? [`cluster ${c[0].cluster}:`, ...lines] : lines;
    }),
  );
}

function byProvider(peers: RepoPeers) {
  return [...peers].sort(([a], [b]) => a.localeCompare(b, 'en'));
}
