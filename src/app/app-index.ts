import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { getGenerator } from '../../generators/registry';
import { repoPeers } from '../render/repo-peers';
import { sha256Hex } from '../render/sha256';
import type { LoadedApp } from '../spec/loaded-app';
import { AppLocation } from './inputs';
import { everyClaim } from './cross-app';

/**
 * What a single-app command needs to know of the other apps of rollgen.yaml without loading them:
 * per app, the keys through which repo-wide checks couple it to others (its route claims, e.g. an
 * nginx host+path, and its providers with a repo check, e.g. ALB orders). An entry holds for the
 * exact state of the app's files it was computed from (see appStamp), its rollgen.yaml entry and
 * this build of rollgen; anything else makes the app load in full and be indexed again.
 */
export interface IndexEntry {
  /** Keys shared with another app mean the two must be checked together. */
  readonly keys: readonly string[];
  /** False when the app has errors: it is left out of repo-wide checks, with a note. */
  readonly ok: boolean;
  readonly stamp: string;
}

/** rollgen.yaml entry (JSON) -> entry. */
export type AppIndex = Map<string, IndexEntry>;

export const appKey = (loc: AppLocation): string => JSON.stringify(loc);

/** The coupling keys of a loaded app; computed on the app alone, like every check it feeds. */
export function couplingKeys(app: LoadedApp): string[] {
  const keys = new Set<string>();
  const peers = repoPeers([app]);
  for (const { claim } of everyClaim([app], peers)) keys.add(`claim\u0000${claim.key}`);
  // A provider with a repo-wide check (ALB orders) couples every app bound to it.
  for (const id of peers.keys()) if (getGenerator(id)?.checkRepo) keys.add(`peers\u0000${id}`);
  return [...keys].sort();
}

/** Files changed this recently may change again within the file system's timestamp granularity. */
const RACY_MS = 3000;

/**
 * The state of every file under the app's source directory (more than rollgen reads, so no change
 * it would see escapes): per entry its size, inode, modification and change times, as git's index
 * keeps them; the change time cannot be set back by any tool, so a file rewritten since shows.
 * A directory whose own times and inode are those of `previous` (the stamp stored for the app)
 * still holds the names listed there: a lstat replaces the readdir. Undefined when an entry
 * changed too recently to tell a later change from it by time (the app is then loaded), or when
 * the directory cannot be read. Links are not followed: a loaded app goes through the full reader.
 */
export function appStamp(loc: AppLocation, now: number, previous?: string): string | undefined {
  if (loc.source === '-') return undefined;
  const known = previous ? listings(previous) : new Map<string, string[]>();
  const lines: string[] = [];
  let newest = 0;
  const see = (st: fs.Stats) => {
    newest = Math.max(newest, st.mtimeMs, st.ctimeMs);
    return [st.mode, st.size, st.ino, st.mtimeMs, st.ctimeMs].join(FIELD);
  };
  const walk = (dir: string, rel: string) => {
    const line = `D${FIELD}${see(fs.lstatSync(dir))}${FIELD}${rel}`;
    lines.push(line);
    for (const name of known.get(line) ?? fs.readdirSync(dir)) {
      const st = fs.lstatSync(`${dir}/${name}`);
      lines.push(`F${FIELD}${see(st)}${FIELD}${rel}/${name}`);
      if (st.isDirectory()) walk(`${dir}/${name}`, `${rel}/${name}`);
    }
  };
  try {
    walk(loc.source, '');
  } catch {
    return undefined;
  }
  return newest < now - RACY_MS ? lines.join(LINE) : undefined;
}

/** Stamp lines: kind, 5 fields, path (last: a name may hold anything but NUL and `/`), NUL between lines. */
const FIELD = '\u0001';
const LINE = '\u0000';

/** A stamp's directory line -> the names listed under it. */
function listings(stamp: string): Map<string, string[]> {
  const byPath = new Map<string, string>();
  const names = new Map<string, string[]>();
  for (const line of stamp.split(LINE)) {
    let at = 0;
    for (let i = 0; i < 6; i++) at = line.indexOf(FIELD, at) + 1;
    const p = line.slice(at);
    if (line[0] === 'D') {
      byPath.set(p, line);
      names.set(line, []);
    } else {
      const cut = p.lastIndexOf('/');
      names.get(byPath.get(p.slice(0, cut)) ?? '')?.push(p.slice(cut + 1));
    }
  }
  return names;
}

/**
 * This build of rollgen: the running file's size and mtime (dist/cli.js, or a module under test),
 * so an index written by another version is never read as this one's.
 */
const BUILD = (() => {
  const s = fs.statSync(__filename, { throwIfNoEntry: false });
  return `rollgen-index-1:${__filename}:${s?.size}:${s?.mtimeMs}`;
})();

/** Where the index of one rollgen.yaml lives: ROLLGEN_CACHE_DIR, else the user's cache directory. */
export function indexFile(configFile: string, env: Readonly<Record<string, string | undefined>>): string {
  const dir = env.ROLLGEN_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'rollgen');
  return path.join(dir, `index-${sha256Hex(path.resolve(configFile)).slice(0, 16)}.json`);
}

/** The stored index; empty when missing, unreadable or written by another build: it is a cache only. */
export function readIndex(file: string): AppIndex {
  try {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { build?: string; apps?: Record<string, IndexEntry> };
    return new Map(raw.build === BUILD ? Object.entries(raw.apps ?? {}) : []);
  } catch {
    return new Map();
  }
}

/** Stores the index atomically (a reader sees the old or the new file); a failure only costs speed next time. */
export function writeIndex(file: string, index: AppIndex): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    const apps = Object.fromEntries([...index].sort(([a], [b]) => (a < b ? -1 : 1)));
    fs.writeFileSync(tmp, JSON.stringify({ build: BUILD, apps }));
    fs.renameSync(tmp, file);
  } catch {
    // A read-only or missing cache directory: the next run loads the apps again.
  }
}

/**
 * The other apps a command on `named` must load: every app sharing a key with them, and with those,
 * until no new key appears (an ALB listener shared with a peer of a peer still decides orders).
 */
export function coupledApps(namedKeys: readonly string[], others: ReadonlyMap<string, IndexEntry>): Set<string> {
  const byKey = new Map<string, string[]>();
  for (const [name, entry] of others) for (const k of entry.keys) byKey.set(k, [...(byKey.get(k) ?? []), name]);
  const chosen = new Set<string>();
  const pending = [...namedKeys];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const name of byKey.get(key) ?? []) {
      if (chosen.has(name)) continue;
      chosen.add(name);
      pending.push(...others.get(name)!.keys);
    }
  }
  return chosen;
}
