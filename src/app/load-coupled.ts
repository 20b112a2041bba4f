import * as fs from 'fs';
import * as path from 'path';
import { InputError } from '../errors';
import { findConfig } from '../io/config';
import { SourceFile } from '../io/read-source';
import { yamlPool } from '../io/yaml-pool';
import type { ParseResult } from '../yaml/parse';
import type { LoadedApp } from '../spec/loaded-app';
import {
  AppIndex,
  IndexEntry,
  Stamp,
  appKey,
  appStamp,
  asStamp,
  coupledApps,
  couplingKeys,
  indexFile,
  readIndex,
  writeIndex,
} from './app-index';
import { AppLocation, loadSource, readSourceFiles } from './inputs';
import { CommonOptions, RunContext } from './context';
import type { PeerRollout } from '../contract/generator';
import type { ResourceSet } from '../model/resource-set';
import { albFacts, slimObjects, slimPeers } from './slim-peers';

const withAlbFacts = (app: LoadedApp | undefined) => {
  const alb = app && albFacts(app);
  return alb ? { alb } : {};
};

/**
 * The other apps a command on some apps of rollgen.yaml must check them against: only those coupled
 * to them (app-index.ts), found through the stored index; an app whose inputs changed since it was
 * indexed is loaded in full and indexed again. So `render APP` in a repo of N apps reads every
 * app's files but parses only its own and its peers'. Many apps to load (a first run, a listener
 * shared by hundreds) are parsed with the YAML pool.
 */
export async function loadCoupled(
  ctx: RunContext,
  opts: CommonOptions,
  named: readonly LoadedApp[],
  others: readonly AppLocation[],
): Promise<Coupled> {
  const { entries, loaded } = await indexedApps(ctx, opts, others);
  const chosen = coupledApps(
    named.flatMap((app) => couplingKeys(app)),
    new Map([...entries].filter(([, e]) => e.ok)),
  );
  const wanted = others.filter((loc) => chosen.has(loc.name));
  const now = (ctx.now ?? (() => new Date()))().getTime();
  const slim: PeerRollout<unknown>[] = [];
  const full = wanted.filter((loc) => {
    if (loaded.has(loc.name)) return true;
    const peers = indexedPeers(loc, entries.get(loc.name), now);
    if (peers) slim.push(...peers);
    return !peers;
  });
  const more = await loadAll(
    ctx,
    full.filter((loc) => !loaded.has(loc.name)),
  );
  for (const app of more) if (app) loaded.set(app.name, app);
  return { apps: full.flatMap((loc) => loaded.get(loc.name) ?? []), slim };
}

/** The coupled apps: loaded in full, or (ALB-only peers whose source and output are as indexed) read from the index. */
export interface Coupled {
  readonly apps: LoadedApp[];
  readonly slim: PeerRollout<unknown>[];
}

/**
 * The peers an ALB-only app's index entry stands for, when its output directory is as stamped when
 * last read (its source is: the entry is current); else undefined, and it loads in full as before.
 */
function indexedPeers(
  loc: AppLocation,
  entry: IndexEntry | undefined,
  now: number,
): PeerRollout<unknown>[] | undefined {
  const out = entry?.albOutput;
  const facts = entry?.alb;
  if (!loc.output || !facts || !out || !Array.isArray(facts.items) || !Array.isArray(facts.peers)) return undefined;
  const stamp = asStamp(out.stamp);
  if (!stamp || !Array.isArray(out.items) || !outputUnchanged({ ...loc, output: loc.output }, stamp, now))
    return undefined;
  return slimPeers(loc.name, facts, out.items);
}

/** The stamp of an app's output directory, taken before it is read (a later change then shows as a new stamp). */
export function outputStamp(loc: AppLocation, ctx: RunContext): Stamp | undefined {
  if (!loc.output) return undefined;
  if (isAbsent(loc.output)) return ABSENT;
  return appStamp({ ...loc, source: loc.output }, (ctx.now ?? (() => new Date()))().getTime())?.stamp;
}

/** A missing output directory is an empty output (nothing committed yet): stamped as such. */
const ABSENT: Stamp = { dirs: {}, stats: [], content: 'absent' };

function isAbsent(dir: string): boolean {
  try {
    fs.lstatSync(dir);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Whether the output directory is in the state `stamp` recorded (still absent, or the same files). */
function outputUnchanged(loc: AppLocation & { output: string }, stamp: Stamp, now: number): boolean {
  if (stamp.content === ABSENT.content && stamp.stats.length === 0) return isAbsent(loc.output);
  return appStamp({ ...loc, source: loc.output }, now, stamp)?.unchanged === true;
}

/**
 * Stores in the index what order allocation reads of the committed outputs of ALB-only apps just
 * loaded in full, with their output stamps, so the next command reads them without loading.
 */
export function rememberOutputs(
  ctx: RunContext,
  opts: CommonOptions,
  outputs: readonly { loc: AppLocation; stamp?: Stamp; resources?: ResourceSet }[],
): void {
  const file = indexPath(ctx, opts);
  if (!file) return;
  const index = readIndex(file);
  let changed = false;
  for (const { loc, stamp, resources } of outputs) {
    const entry = index.get(appKey(loc));
    // An output that appeared after it was stamped absent is not remembered as absent.
    if (!entry?.alb || !stamp || !resources || (stamp === ABSENT && resources.items.length > 0)) continue;
    index.set(appKey(loc), { ...entry, albOutput: { stamp, items: slimObjects(resources) } });
    changed = true;
  }
  if (changed) writeIndex(file, index);
}

const indexPath = (ctx: RunContext, opts: CommonOptions): string | undefined => {
  const configFile = opts.config ? path.resolve(ctx.cwd, opts.config) : findConfig(ctx.cwd);
  return configFile ? indexFile(configFile, ctx.env ?? process.env) : undefined;
};

/**
 * Each app's index entry: the stored one while its inputs are unchanged, else one made by loading
 * it (those apps are returned too, loaded). The index file is rewritten when an entry changed.
 * `quiet`: no note for an app with errors (the caller loads the apps again, and that says it).
 */
export async function indexedApps(
  ctx: RunContext,
  opts: CommonOptions,
  others: readonly AppLocation[],
  quiet = false,
): Promise<{ entries: Map<string, IndexEntry>; loaded: Map<string, LoadedApp> }> {
  const file = indexPath(ctx, opts);
  const stored: AppIndex = file ? readIndex(file) : new Map();
  const now = (ctx.now ?? (() => new Date()))().getTime();
  const stamps = others.map((loc) => {
    const known = stored.get(appKey(loc));
    const stamped = appStamp(loc, now, known?.stamp);
    return { loc, stamped, entry: stamped?.unchanged ? known : undefined };
  });
  const loaded = new Map<string, LoadedApp>();
  const unknown = stamps.filter((s) => !s.entry).map((s) => s.loc);
  for (const app of await loadAll(ctx, unknown)) if (app) loaded.set(app.name, app);
  const fresh: AppIndex = new Map();
  const entries = new Map<string, IndexEntry>();
  for (const { loc, stamped, entry: known } of stamps) {
    const app = loaded.get(loc.name);
    // Same contents under new times (a fresh checkout): the entry holds, with the new stamp.
    const kept = known && stamped!.stamp !== known.stamp ? { ...known, stamp: stamped!.stamp } : known;
    const entry = kept ?? {
      keys: app ? couplingKeys(app) : [],
      ok: app !== undefined,
      stamp: stamped?.stamp ?? NO_STAMP,
      ...withAlbFacts(app),
    };
    if (stamped) fresh.set(appKey(loc), entry);
    entries.set(loc.name, entry);
    if (!entry.ok && !quiet) ctx.stderr(brokenNote(loc.name));
  }
  if (file && !sameIndex(stored, fresh)) writeIndex(file, fresh);
  return { entries, loaded };
}

/** loadQuietly of each app (undefined for one with errors), their files parsed with the YAML pool. */
async function loadAll(ctx: RunContext, locs: readonly AppLocation[]): Promise<(LoadedApp | undefined)[]> {
  const files = locs.map((loc) => readQuietly(loc, ctx));
  const jobs = files.map((f) => (f ?? []).map(({ path: p, text }) => ({ path: p, text })));
  return yamlPool(locs.length).parseGroups(jobs, (i, parsed) => {
    const read = files[i];
    return read && loadQuietly(locs[i], read, parsed);
  });
}

export const brokenNote = (name: string) =>
  `note: app ${name} has errors and is left out of repo-wide checks; run rollgen validate ${name}\n`;

function readQuietly(loc: AppLocation, ctx: RunContext): SourceFile[] | undefined {
  try {
    return readSourceFiles(loc, ctx.cwd);
  } catch (e) {
    if (e instanceof InputError) return undefined;
    throw e;
  }
}

export function loadQuietly(
  loc: AppLocation,
  files: readonly SourceFile[],
  parsed?: readonly ParseResult[],
): LoadedApp | undefined {
  try {
    return loadSource(loc, files, process.cwd(), parsed);
  } catch (e) {
    if (e instanceof InputError) return undefined;
    throw e;
  }
}

/** An app whose stamp is unchanged keeps its stored entry, so the same entries mean the same index. */
function sameIndex(a: AppIndex, b: AppIndex): boolean {
  return a.size === b.size && [...b].every(([k, e]) => a.get(k) === e);
}

const NO_STAMP: Stamp = { dirs: {}, stats: [] };
