import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { getGenerator } from '../../generators/registry';
import { repoPeers } from '../render/repo-peers';
import { LoadedApp } from '../spec/load-app';
import { SourceFile } from '../io/read-source';
import { AppLocation } from './apps';
import { everyClaim } from './cross-app';

/**
 * What a single-app command needs to know of the other apps of rollgen.yaml without loading them:
 * per app, the keys through which repo-wide checks couple it to others (its route claims, e.g. an
 * nginx host+path, and its providers with a repo check, e.g. ALB orders). An entry is valid only for
 * the exact bytes it was computed from (source files and rollgen.yaml entry) and for this build of
 * rollgen, so a stale entry is never used: such an app is loaded in full again.
 */
export interface IndexEntry {
  /** Keys shared with another app mean the two must be checked together. */
  readonly keys: readonly string[];
  /** False when the app has errors: it is left out of repo-wide checks, with a note. */
  readonly ok: boolean;
}

export type AppIndex = Map<string, IndexEntry>;

/** The coupling keys of a loaded app; computed on the app alone, like every check it feeds. */
export function couplingKeys(app: LoadedApp): string[] {
  const keys = new Set<string>();
  const peers = repoPeers([app]);
  for (const { claim } of everyClaim([app], peers)) keys.add(`claim\u0000${claim.key}`);
  // A provider with a repo-wide check (ALB orders) couples every app bound to it.
  for (const id of peers.keys()) if (getGenerator(id)?.checkRepo) keys.add(`peers\u0000${id}`);
  return [...keys].sort();
}

/** Content digest of one app's inputs: its rollgen.yaml entry and every source file, with the build that reads them. */
export function appDigest(loc: AppLocation, files: readonly SourceFile[]): string {
  const hash = createHash('sha256').update(BUILD).update(JSON.stringify(loc));
  for (const f of files) hash.update(`\u0000${f.path}\u0000${f.text.length}\u0000`).update(f.text);
  return hash.digest('hex');
}

/**
 * This build of rollgen: the running file's size and mtime (dist/cli.js, or a module under test),
 * so an index written by another version is never read as this one's.
 */
const BUILD = (() => {
  const s = fs.statSync(__filename, { throwIfNoEntry: false });
  return `rollgen-index-1\u0000${__filename}\u0000${s?.size}\u0000${s?.mtimeMs}`;
})();

/** Where the index of one rollgen.yaml lives: ROLLGEN_CACHE_DIR, else the user's cache directory. */
export function indexFile(configFile: string, env: Readonly<Record<string, string | undefined>>): string {
  const dir = env.ROLLGEN_CACHE_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'rollgen');
  const id = createHash('sha256').update(path.resolve(configFile)).digest('hex').slice(0, 16);
  return path.join(dir, `index-${id}.json`);
}

/** The stored index (digest -> entry); empty when missing or unreadable: it is a cache only. */
export function readIndex(file: string): AppIndex {
  try {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, IndexEntry>;
    return new Map(Object.entries(raw));
  } catch {
    return new Map();
  }
}

/** Stores the index atomically (a reader sees the old or the new file); a failure only costs speed next time. */
export function writeIndex(file: string, index: AppIndex): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries([...index].sort(([a], [b]) => (a < b ? -1 : 1)))));
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
