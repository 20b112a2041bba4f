import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { getGenerator } from '../../generators/registry';
import { repoPeers } from '../render/repo-peers';
import { sha256Hex } from '../render/sha256';
import type { LoadedApp } from '../spec/loaded-app';
import { AppLocation } from './inputs';
import { everyClaim } from './cross-app';
import type { AlbFacts, SlimObject } from './slim-peers';

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
  readonly stamp: Stamp;
  /** An app that routes through aliyun-alb only: what order allocation reads of it (slim-peers.ts). */
  readonly alb?: AlbFacts;
  /** Its committed output's Ingresses, as of `stamp` of its output directory (taken before it was read). */
  readonly albOutput?: { readonly stamp: Stamp; readonly items: readonly SlimObject[] };
}

/**
 * The state of every file under an app's source directory, as git's index keeps it: per directory
 * (relative to the source, "" for itself) the names it lists, and per entry in walk order (the
 * source, then each listed name, depth first) its mode, size, inode, modification and change
 * times. Plain numbers and names, so an index in JSON compares without formatting anything.
 * `content` digests the entries' names, modes and bytes: on a fresh checkout (a new runner with the
 * index restored from a cache) every inode and time differs, but an app whose files are the same
 * keeps its entry. `racy`: some entry changed too recently for its times to show a later change
 * (RACY_MS), so the next run compares contents, not times.
 */
export interface Stamp {
  readonly dirs: Readonly<Record<string, readonly string[]>>;
  readonly stats: readonly number[];
  readonly content?: string;
  readonly racy?: boolean;
}

/** rollgen.yaml entry (JSON) -> entry. */
export type AppIndex = Map<string, IndexEntry>;

export const appKey = (loc: AppLocation): string => JSON.stringify(loc);

/** The coupling keys of a loaded app; computed on the app alone, like every check it feeds. */
export function couplingKeys(app: LoadedApp): string[] {
  const keys = new Set<string>();
  const peers = repoPeers([app]);
  const cluster = app.cluster ?? '';
  for (const { claim } of everyClaim([app], peers)) keys.add(`claim\u0000${cluster}\u0000${claim.key}`);
  // A provider with a repo-wide check (ALB orders) couples every app bound to it in its cluster.
  for (const id of peers.keys()) if (getGenerator(id)?.checkRepo) keys.add(`peers\u0000${cluster}\u0000${id}`);
  return [...keys].sort();
}

/** Files changed this recently may change again within the file system's timestamp granularity. */
const RACY_MS = 3000;

/**
 * The app's Stamp, and whether it is `previous` unchanged. More than rollgen reads is stamped, so no
 * change it would see escapes; the change time cannot be set back by any tool, so a file rewritten
 * since shows. While every entry so far matches `previous`, a directory whose own stat matches still
 * lists the names stored for it: the stored listing replaces the readdir. When the times differ
 * (a fresh checkout), or either stamp is racy, the contents decide: every file is read and digested,
 * which costs far less than parsing it. Undefined when the directory cannot be read. Links are not
 * followed: a loaded app goes through the full reader.
 */
export function appStamp(
  loc: AppLocation,
  now: number,
  previous?: Stamp,
): { readonly stamp: Stamp; readonly unchanged: boolean } | undefined {
  if (loc.source === '-') return undefined;
  const dirs: Record<string, readonly string[]> = {};
  const stats: number[] = [];
  const entries: { path: string; rel: string; st: fs.Stats }[] = [];
  // A racy stamp's listings may miss a name added within the timestamp granularity: never reused.
  let same = previous !== undefined && previous.racy !== true;
  let newest = 0;
  const see = (p: string, rel: string): fs.Stats => {
    const st = fs.lstatSync(p);
    const at = stats.length;
    stats.push(st.mode, st.size, st.ino, st.mtimeMs, st.ctimeMs);
    entries.push({ path: p, rel, st });
    newest = Math.max(newest, st.mtimeMs, st.ctimeMs);
    if (same) for (let i = at; i < at + STAT_FIELDS; i++) same &&= stats[i] === previous!.stats[i];
    return st;
  };
  const walk = (dir: string, rel: string) => {
    const listed = same ? previous!.dirs[rel] : undefined;
    const stored = Array.isArray(listed) && listed.every((n) => typeof n === 'string') ? listed : undefined;
    if (!stored) same = false;
    const names = stored ?? fs.readdirSync(dir);
    dirs[rel] = names;
    for (const name of names)
      if (see(`${dir}/${name}`, `${rel}/${name}`).isDirectory()) walk(`${dir}/${name}`, `${rel}/${name}`);
  };
  try {
    see(loc.source, '');
    walk(loc.source, '');
    const racy = newest >= now - RACY_MS;
    if (same && stats.length === previous!.stats.length && !racy) return { stamp: previous!, unchanged: true };
    const content = contentDigest(dirs, entries);
    const stamp: Stamp = { dirs, stats, content, ...(racy ? { racy: true } : {}) };
    return { stamp, unchanged: previous?.content === content };
  } catch {
    return undefined;
  }
}

/** The names, modes and bytes of an app's entries (a link: its target), as one digest. */
function contentDigest(
  dirs: Readonly<Record<string, readonly string[]>>,
  entries: readonly { path: string; rel: string; st: fs.Stats }[],
): string {
  const parts: string[] = [JSON.stringify(dirs)];
  for (const { path: p, rel, st } of entries) {
    const bytes = st.isFile() ? fs.readFileSync(p, 'latin1') : st.isSymbolicLink() ? fs.readlinkSync(p) : '';
    parts.push(`${rel}\u0000${st.mode}\u0000${bytes.length}\u0000${bytes}`);
  }
  return createHash('sha256').update(parts.join('\u0001'), 'latin1').digest('hex');
}

/** mode, size, ino, mtimeMs, ctimeMs */
const STAT_FIELDS = 5;

/**
 * A stamp as read back from the index file, whose JSON anyone could have edited: else undefined.
 * Shallow: a stored value of the wrong type never equals what lstat reads, and a listing is checked
 * where it is used (appStamp), so a hand-edited entry is a cache miss, never trusted.
 */
export function asStamp(v: unknown): Stamp | undefined {
  const s = v as Partial<Stamp> | undefined;
  return typeof s?.dirs === 'object' && s.dirs !== null && Array.isArray(s.stats) ? (s as Stamp) : undefined;
}

/**
 * This build of rollgen: a digest of the running file (dist/cli.js, the Action's bundle, or a module
 * under test), so an index written by another version is never read as this one's, while the same
 * release on a fresh runner (a new download, new times) reads the index a cache restored. Computed
 * when an index is first read or written, never at start-up.
 */
let build: string | undefined;
function thisBuild(): string {
  build ??= `rollgen-index-4:${createHash('sha256').update(fs.readFileSync(__filename)).digest('hex').slice(0, 32)}`;
  return build;
}

/** Where the index of one rollgen.yaml lives: ROLLGEN_CACHE_DIR, else the user's cache directory. */
export function indexFile(configFile: string, env: Readonly<Record<string, string | undefined>>): string {
  const dir = env.ROLLGEN_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'rollgen');
  return path.join(dir, `index-${sha256Hex(path.resolve(configFile)).slice(0, 16)}.json`);
}

/** The stored index; empty when missing, unreadable or written by another build: it is a cache only. */
export function readIndex(file: string): AppIndex {
  try {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { build?: string; apps?: Record<string, IndexEntry> };
    if (raw.build !== thisBuild()) return new Map();
    return new Map(Object.entries(raw.apps ?? {}).filter(([, e]) => asStamp(e?.stamp) && Array.isArray(e.keys)));
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
    fs.writeFileSync(tmp, JSON.stringify({ build: thisBuild(), apps }));
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
  for (const [name, entry] of others)
    for (const k of entry.keys) {
      const names = byKey.get(k);
      if (names) names.push(name);
      else byKey.set(k, [name]);
    }
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
