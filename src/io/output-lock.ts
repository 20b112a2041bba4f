import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compareText, printable } from '../diagnostics';
import { InputError, StateError } from '../errors';
import { checkNotLink, makeDirs, makeDirsAsync, tryLink, writeNewFile } from './fs-safe';

/**
 * One writer per output: `advance` reads the status, computes the next state and writes it, so two
 * runs at once would both move from the same state and one step would be lost. The lock is a file
 * inside the output holding the owner's pid and host, written whole under a temporary name and then
 * linked into place (link fails where the name exists: as exclusive as O_EXCL), so it is never seen
 * without its owner. A lock whose owner died on this host (a crash, SIGKILL) is taken over, and so
 * is one with no owner recorded (empty or unreadable: an older rollgen killed between creating and
 * writing it) once it is UNOWNED_STALE_MS old, so a crash never blocks the next run.
 */
export const LOCK_FILE = '.rollgen-lock';
/** A lock with no owner recorded is stale once this old (by its mtime): no live run leaves one that long. */
export const UNOWNED_STALE_MS = 5000;
/** The temporary names locks are written under (`.rollgen-lock.PID.tmp`), for recovery to remove a killed run's. */
export const LOCK_TEMP = /^\.rollgen-lock(\.break)?\.\d+\.tmp$/;

export interface OutputLock {
  readonly release: () => Promise<void>;
}

export interface LockOptions {
  /** How long to wait for another run to finish; then the run fails naming the owner. */
  readonly waitMs: number;
  readonly pollMs?: number;
  readonly notify?: (line: string) => void;
  /** The output directories, made beforehand (prepareOutputDirs). */
  readonly prepared?: PreparedDirs;
}

/** Output directories made before their locks: per directory, the first one made for it (undefined: it existed). */
export interface PreparedDirs {
  readonly made: Promise<ReadonlyMap<string, string | undefined>>;
  /** Removes what was made while it is still empty: the run stopped before it locked them. */
  readonly discard: () => Promise<void>;
}

/**
 * Makes a run's output directories all at once on the thread pool, so the run can load its apps
 * meanwhile (1,000 outputs: 1,000 directories, most of it the file system's work). Where one
 * cannot be made, its lock makes it and reports why. Nothing but directories is written before
 * the locks; a run that stops first removes the empty ones it made (`discard`).
 */
export function prepareOutputDirs(dirs: readonly string[]): PreparedDirs {
  const made = Promise.all(
    [...new Set(dirs)].map((d) =>
      makeDirsAsync(d).then(
        (created) => [[d, created] as const],
        () => [],
      ),
    ),
  ).then((pairs) => new Map(pairs.flat()));
  const discard = async () =>
    removeMadeDirs([...(await made)].filter((e): e is [string, string] => e[1] !== undefined));
  return { made, discard };
}

/**
 * One output's lock. Its file is never flushed: it excludes other live runs, which see it at once
 * through the page cache; after a machine crash its owner is gone, and a lock that did not reach
 * the disk is the right outcome (one that did would be judged by a pid the reboot may have reused).
 */
async function takeLock(dir: string, opts: LockOptions, sameOwner?: string): Promise<HeldLock> {
  const prepared = await opts.prepared?.made;
  checkNotLink(dir);
  const created = prepared?.has(dir) ? prepared.get(dir) : makeDirs(dir);
  const file = path.join(dir, LOCK_FILE);
  const deadline = Date.now() + opts.waitMs;
  let told = false;
  for (;;) {
    if (tryCreate(file, sameOwner)) return { file, dir, created };
    const owner = readOwner(file);
    if (owner === undefined) continue; // released in between
    if (isStale(file, owner)) {
      breakStaleLock(file, owner);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new StateError(
        `${dir} is being written by another rollgen run (${describe(owner)}); waited ${Math.round(opts.waitMs / 1000)} s. ` +
          `If no rollgen is running, delete ${file}`,
      );
    }
    if (!told) opts.notify?.(`waiting for another rollgen run (${describe(owner)}) to finish writing ${dir}\n`);
    told = true;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 100));
  }
}

/** Locks several outputs in one fixed order, so two runs over overlapping apps cannot deadlock. */
export async function lockOutputs(dirs: readonly string[], opts: LockOptions): Promise<OutputLock> {
  const held: HeldLock[] = [];
  try {
    const sorted = [...new Set(dirs)].sort(compareText);
    // Every lock of the run holds the same owner line: the first one's file, linked (see tryCreate).
    for (const d of sorted)
      held.push(await takeLock(d, opts, held.length > 0 ? path.join(sorted[0], LOCK_FILE) : undefined));
  } catch (e) {
    await release(held);
    await opts.prepared?.discard(); // the directories of the outputs not locked yet
    throw e;
  }
  return { release: () => release(held) };
}

/** A lock file this run created, in `dir`; `created`: the first directory made for it, if any. */
interface HeldLock {
  readonly file: string;
  readonly dir: string;
  readonly created: string | undefined;
}

/**
 * Creates the lock file, failing (false) where one exists. With `sameOwner` (this run's first lock)
 * it is a hard link to that file: as exclusive as O_EXCL, the same content, and no new inode, which
 * is most of what a lock costs (1,000 outputs: 1,000 file creations). Where links are not supported
 * (another file system, EPERM), the file is created.
 */
function tryCreate(file: string, sameOwner?: string): boolean {
  // Waiting runs poll: one that finds the lock there writes no temporary name for nothing.
  if (fs.lstatSync(file, { throwIfNoEntry: false })) return false;
  try {
    if (sameOwner === undefined || !tryLink(sameOwner, file)) createWhole(file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** The lock written whole under a temporary name, then linked into place (EEXIST where one is there). */
function createWhole(file: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true }); // a leftover of a killed run that had this pid
  writeNewFile(temp, `${process.pid}\n${os.hostname()}\n`, { flush: false });
  try {
    fs.linkSync(temp, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw e;
    // No links on this file system (EPERM, ENOTSUP): the rename cannot refuse an existing lock, O_EXCL can.
    writeNewFile(file, `${process.pid}\n${os.hostname()}\n`, { flush: false });
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function readOwner(file: string): string | undefined {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat && !stat.isFile())
    throw new InputError([], `${file}: is not a lock rollgen wrote (a link or a directory); delete it`);
  try {
    return fs.readFileSync(file, 'utf8').slice(0, 300);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EACCES' || code === 'EPERM') return ''; // unreadable: no owner recorded
    throw e;
  }
}

/** The owner's pid and host, where the lock records them (an older rollgen killed mid-create left it empty). */
function ownerOf(owner: string): { pid: string; host: string } | undefined {
  const [pid, host] = owner.split('\n');
  return /^\d+$/.test(pid) && host ? { pid, host } : undefined;
}

function describe(owner: string): string {
  const recorded = ownerOf(owner);
  if (!recorded) return `a lock with no owner recorded, taken over once ${UNOWNED_STALE_MS / 1000} s old`;
  return `pid ${printable(recorded.pid)} on ${printable(recorded.host)}`;
}

/** A lock to take over: its owner died on this host, or it records no owner and is older than UNOWNED_STALE_MS. */
function isStale(file: string, owner: string): boolean {
  if (ownerOf(owner)) return isDead(owner);
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  return stat !== undefined && Date.now() - stat.mtimeMs > UNOWNED_STALE_MS;
}

/** Only a lock of this host can be judged: its pid no longer exists. */
function isDead(owner: string): boolean {
  const [pid, host] = owner.split('\n');
  if (host !== os.hostname() || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Two runs may find the same dead lock; a second lock file serialises the takeover, and the stale
 * lock is removed only if it still holds the dead owner (not a lock the other run just took).
 */
function breakStaleLock(file: string, owner: string): void {
  const breaker = `${file}.break`;
  if (!tryCreate(breaker)) {
    const other = readOwner(breaker);
    if (other !== undefined && isStale(breaker, other)) fs.rmSync(breaker, { force: true });
    return;
  }
  try {
    if (readOwner(file) === owner && isStale(file, owner)) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

/** Removes the temporary lock names a killed run left in `dir` (`entries`), once as old as a stale lock. */
export function removeLockTemps(dir: string, entries: readonly string[]): void {
  for (const name of entries.filter((n) => LOCK_TEMP.test(n))) {
    const stat = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    if (stat?.isFile() && Date.now() - stat.mtimeMs > UNOWNED_STALE_MS)
      fs.rmSync(path.join(dir, name), { force: true });
  }
}

/**
 * Removes the lock files together (an unlink waits on the file system's journal, and issued at once
 * they share it), then what a failed first deploy made: no empty output, nor the parents made for
 * it, stays behind. Deepest first, in turn: the output that made a shared parent removes it once
 * its siblings are gone (removed at once, each would find the parent still holding the other).
 */
async function release(held: readonly HeldLock[]): Promise<void> {
  await Promise.all(held.map((l) => fs.promises.rm(l.file, { force: true })));
  await removeMadeDirs(held.flatMap((l) => (l.created === undefined ? [] : [[l.dir, l.created] as const])));
}

async function removeMadeDirs(made: ReadonlyArray<readonly [dir: string, created: string]>): Promise<void> {
  const deepestFirst = [...made].sort((a, b) => b[1].length - a[1].length);
  for (const [dir, created] of deepestFirst) await removeEmpty(dir, created);
}

/** Removes `dir` and its parents up to `created` while they are empty (another output may share a parent). */
async function removeEmpty(dir: string, created: string): Promise<void> {
  for (let d = dir; ; d = path.dirname(d)) {
    const empty = (await fs.promises.readdir(d).catch(() => [''])).length === 0;
    if (!empty || !(await removedDir(d)) || d === created) return;
  }
}

const removedDir = (d: string): Promise<boolean> =>
  fs.promises.rmdir(d).then(
    () => true,
    () => false,
  );
