import { formatDiagnostic } from '../diagnostics';
import { RepoPeers, repoPeers } from '../render/repo-peers';
import type { LoadedApp } from '../spec/loaded-app';
import type { OutputSnapshot } from '../state/app-state';
import {
  AppLocation,
  loadSource,
  locateApps,
  locateWithRepo,
  outputSnapshot,
  readSourceFiles,
  usesConfig,
} from './inputs';
import { loadCoupled, outputStamp, rememberOutputs } from './load-coupled';
import { withSlimPeers } from './slim-peers';
import type { PeerRollout } from '../contract/generator';
import { ResourceSet } from '../model/resource-set';
import { YamlPool, yamlPool } from '../io/yaml-pool';
import type { ParseResult } from '../yaml/parse';
import { readOutputDir } from '../io/output-dir';
import type { SourceFile } from '../io/read-source';
import { InputError } from '../errors';
import { CommonOptions, RunContext } from './context';
import { checkAcrossApps } from './cross-app';
import type { WaveConfig } from '../io/config-waves';

export interface LoadedEntry {
  readonly loc: AppLocation;
  readonly app: LoadedApp;
}

/** A named app with its output as loadRepo read it (undefined when unreadable: its command reads it again and reports why). */
export interface RepoEntry extends LoadedEntry {
  readonly output?: OutputSnapshot;
}

/** The apps a command names plus what repo-wide rules need: every app of rollgen.yaml, by provider. */
export interface LoadedRepo {
  readonly apps: readonly RepoEntry[];
  readonly peers: RepoPeers;
  /** rollgen.yaml `waves:` (docs/fleet.md); empty without. */
  readonly waves: readonly WaveConfig[];
}

/** What a command that writes the named apps' outputs does while loadRepo runs. */
export interface RepoHooks {
  /** Told the named apps before any is read (their output directories are made meanwhile). */
  readonly located?: (named: readonly AppLocation[]) => void;
  /** Once the named apps are loaded, before their outputs are read (they are locked then, so what is read stays true). */
  readonly beforeOutputs?: (apps: readonly LoadedEntry[]) => Promise<void>;
}

/** Locates and loads the apps a command names, printing warnings to stderr. */
export async function loadApps(ctx: RunContext, args: readonly string[], opts: CommonOptions): Promise<LoadedEntry[]> {
  return loadLocated(ctx, locateApps({ cwd: ctx.cwd, args, ...opts }));
}

/**
 * Loads the apps in order. When a worker shares the YAML (many apps, src/io/yaml-pool.ts), every
 * app's sources are read first, then parsed on two threads; an app that could not be read fails
 * where its turn comes, after the apps before it printed their warnings. Otherwise each app is read
 * and loaded in turn, so a failing read (or `build:` command) stops the run before the next app's.
 */
async function loadLocated(
  ctx: RunContext,
  locations: readonly AppLocation[],
  pool = yamlPool(locations.length),
): Promise<LoadedEntry[]> {
  const read = async (loc: AppLocation) => (loc.source === '-' ? ctx.readStdin() : readSourceFiles(loc, ctx.cwd));
  const load = (loc: AppLocation, source: SourceFile[], parsed?: ParseResult[]): LoadedEntry => {
    const app = loadSource(loc, source, ctx.cwd, parsed);
    for (const d of app.diagnostics) ctx.stderr(formatDiagnostic(d) + '\n');
    return { loc, app };
  };
  if (!pool.shares) {
    const loaded: LoadedEntry[] = [];
    for (const loc of locations) loaded.push(load(loc, await read(loc)));
    return loaded;
  }
  const sources = await Promise.all(locations.map((loc) => read(loc).catch((failed: unknown) => ({ failed }))));
  const files = sources.map((s) => ('failed' in s ? [] : s.map((f) => ({ path: f.path, text: f.text }))));
  return pool.parseGroups(files, (i, parsed) => {
    const source = sources[i];
    if ('failed' in source) throw source.failed;
    return load(locations[i], source, parsed);
  });
}

/**
 * Loads the named apps and, in a rollgen.yaml repo, the other apps their repo-wide checks need (all
 * of them when none is named), then runs those checks. Another app with errors is left out of the
 * repo view with a note, so one broken app does not block the rest; naming it (or `validate`)
 * reports its errors.
 */
export async function loadRepo(
  ctx: RunContext,
  args: readonly string[],
  opts: CommonOptions,
  hooks: RepoHooks = {},
): Promise<LoadedRepo> {
  const found = locateWithRepo({ cwd: ctx.cwd, args, ...opts });
  hooks.located?.(found.named);
  const pool = yamlPool(found.named.length);
  const loaded = await loadLocated(ctx, found.named, pool);
  await hooks.beforeOutputs?.(loaded);
  const outputs = await committedOutputs(loaded, ctx, pool);
  const apps = loaded.map((a, i) => ({ ...a, output: outputs[i] }));
  const all = [...apps.map((a) => a.app)];
  const committed = new Map(apps.map((a) => [a.app.name, resourcesOf(a.output)] as const));
  const slim: PeerRollout<unknown>[] = [];
  if (usesConfig({ cwd: ctx.cwd, args, ...opts })) {
    const named = new Set(apps.map((a) => a.loc.name));
    const others = found.every.filter((l) => !named.has(l.name));
    // Named apps are checked against the others coupled to them (load-coupled.ts); no names = every app.
    if (others.length > 0) {
      const coupled = await loadCoupled(ctx, opts, all, others);
      const where = new Map(others.map((l) => [l.name, l]));
      const entries = coupled.apps.map((app) => ({ loc: where.get(app.name)!, app }));
      // Stamped before they are read: an output changed meanwhile is read again next time.
      const stamps = entries.map((e) => outputStamp(e.loc, ctx));
      const interrupted = new Set<number>();
      const outputs = await committedOutputs(entries, ctx, yamlPool(entries.length), interrupted);
      coupled.apps.forEach((app, i) => committed.set(app.name, resourcesOf(outputs[i])));
      rememberOutputs(
        ctx,
        opts,
        entries.map((e, i) => ({
          loc: e.loc,
          stamp: stamps[i],
          resources: interrupted.has(i) ? undefined : outputs[i]?.resources,
        })),
      );
      all.push(...coupled.apps);
      slim.push(...coupled.slim);
    }
  }
  const peers = withSlimPeers(repoPeers(all, committed), slim);
  checkAcrossApps(all, peers);
  return { apps, peers, waves: found.waves };
}

/**
 * What each app's output holds now (its committed state), its files parsed with the pool; undefined
 * for an output that cannot be read (the app's own command reports why).
 */
async function committedOutputs(
  apps: readonly LoadedEntry[],
  ctx: RunContext,
  pool: YamlPool,
  interrupted?: Set<number>,
): Promise<(OutputSnapshot | undefined)[]> {
  const contents = apps.map((a) => unlessInvalid(() => readOutputDir(a.loc.output, ctx.cwd)));
  contents.forEach((c, i) => {
    if (!c?.interrupted) return;
    ctx.stderr(`warning: ${c.interrupted}\n`);
    interrupted?.add(i);
  });
  const files = contents.map((c) => (c ? c.files : []));
  return pool.parseGroups(files, (i, parsed) => {
    const read = contents[i];
    return read && unlessInvalid(() => outputSnapshot(read, parsed));
  });
}

function unlessInvalid<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (e) {
    if (e instanceof InputError) return undefined;
    throw e;
  }
}

/** The objects an output holds, for repo-wide allocations: none when it could not be read. */
const resourcesOf = (output: OutputSnapshot | undefined): ResourceSet => output?.resources ?? new ResourceSet([]);
