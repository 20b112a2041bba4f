import { formatDiagnostic } from '../diagnostics';
import { InputError } from '../errors';
import { RepoPeers, repoPeers } from '../render/repo-peers';
import type { LoadedApp } from '../spec/loaded-app';
import { AppLocation, loadSource, locateApps, readSourceFiles, usesConfig } from './inputs';
import { CommonOptions, RunContext } from './context';
import { checkAcrossApps } from './cross-app';

export interface LoadedEntry {
  readonly loc: AppLocation;
  readonly app: LoadedApp;
}

/** The apps a command names plus what repo-wide rules need: every app of rollgen.yaml, by provider. */
export interface LoadedRepo {
  readonly apps: readonly LoadedEntry[];
  readonly peers: RepoPeers;
}

/** Locates and loads the apps a command names, printing warnings to stderr. */
export async function loadApps(ctx: RunContext, args: readonly string[], opts: CommonOptions): Promise<LoadedEntry[]> {
  const locations = locateApps({ cwd: ctx.cwd, args, ...opts });
  const out: LoadedEntry[] = [];
  for (const loc of locations) {
    const files = loc.source === '-' ? await ctx.readStdin() : readSourceFiles(loc, ctx.cwd);
    const app = loadSource(loc, files);
    for (const d of app.diagnostics) ctx.stderr(formatDiagnostic(d) + '\n');
    out.push({ loc, app });
  }
  return out;
}

/**
 * Loads the named apps and, in a rollgen.yaml repo, every other app too, then runs the repo-wide
 * checks. Another app with errors is left out of the repo view with a note, so one broken app does
 * not block the rest; naming it (or `validate`) reports its errors.
 */
export async function loadRepo(ctx: RunContext, args: readonly string[], opts: CommonOptions): Promise<LoadedRepo> {
  const apps = await loadApps(ctx, args, opts);
  const all = [...apps.map((a) => a.app)];
  if (usesConfig({ cwd: ctx.cwd, args, ...opts })) {
    const named = new Set(apps.map((a) => a.loc.name));
    for (const loc of locateApps({ cwd: ctx.cwd, args: [], ...opts }).filter((l) => !named.has(l.name))) {
      const other = loadQuietly(loc, ctx);
      if (other) all.push(other);
      else
        ctx.stderr(
          `note: app ${loc.name} has errors and is left out of repo-wide checks; run rollgen validate ${loc.name}\n`,
        );
    }
  }
  const peers = repoPeers(all);
  checkAcrossApps(all, peers);
  return { apps, peers };
}

function loadQuietly(loc: AppLocation, ctx: RunContext): LoadedApp | undefined {
  try {
    return loadSource(loc, readSourceFiles(loc, ctx.cwd));
  } catch (e) {
    if (e instanceof InputError) return undefined;
    throw e;
  }
}
