import * as fs from 'fs';
import * as path from 'path';
import { promisify } from 'util';
import { InputError, IoError } from '../errors';

/** Fixed modes, whatever the umask: outputs are byte- and mode-identical for every user and CI. */
export const FILE_MODE = 0o644;
export const DIR_MODE = 0o755;

const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * Creates `file`, which must not exist (not even as a link), with FILE_MODE, and flushes it to disk;
 * `{ flush: false }` leaves the flush to a later `flushAll` of many files at once.
 */
export function writeNewFile(file: string, content: string, { flush = true } = {}): void {
  const fd = fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW,
    FILE_MODE,
  );
  try {
    fs.writeFileSync(fd, content);
    // Only where the umask took bits off: a chmod is one more change for the file system's journal per file.
    if ((fs.fstatSync(fd).mode & 0o777) !== FILE_MODE) fs.fchmodSync(fd, FILE_MODE);
    if (flush) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Files or directories flushed or written together at most this many at once (each holds a descriptor meanwhile). */
const CONCURRENCY = 64;

/**
 * Runs `work` on every item, at most CONCURRENCY at once. After a failure no further item starts;
 * it rejects with the first failure once the items under way have settled (none is left running).
 */
export async function forEachConcurrently<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length)
      await work(items[next++]).catch((e: unknown) => {
        failed = true;
        throw e;
      });
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
}

/**
 * fsync of many files and directories, resolved when every one is on disk. fsync is per file, not per
 * descriptor, so a file written and closed before is flushed through a new read-only descriptor.
 * Issued together, the file system commits them in a few journal transactions instead of one each
 * (1,500 files: 4 times faster here than one fsync after another), with the same guarantee.
 */
export async function flushAll(paths: readonly string[]): Promise<void> {
  await forEachConcurrently(paths, async (p) => {
    const fd = await fs.promises.open(p, fs.constants.O_RDONLY | NO_FOLLOW);
    try {
      await fd.sync();
    } finally {
      await fd.close();
    }
  });
}

const open = promisify(fs.open);
const write = promisify(fs.write);
const fstat = promisify(fs.fstat);
const fchmod = promisify(fs.fchmod);
const fsync = promisify(fs.fsync);
const close = promisify(fs.close);

/** Whether the umask takes bits off FILE_MODE (learnt from the first file: the umask is the process's). */
let umaskNarrows: boolean | undefined;

/**
 * `writeNewFile` of one file, through the thread pool and flushed before it resolves: many started
 * together share the file system's journal commits (as `flushAll` does), and each file is opened
 * once, not once to write and again to flush. Plain descriptors, not FileHandles: a write of
 * thousands of small files is as much these calls as the kernel's work.
 */
export async function writeNewFileFlushed(file: string, content: string): Promise<void> {
  const fd = await open(
    file,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW,
    FILE_MODE,
  );
  try {
    const bytes = Buffer.from(content);
    for (let at = 0; at < bytes.length; ) at += (await write(fd, bytes, at, bytes.length - at, at)).bytesWritten;
    umaskNarrows ??= ((await fstat(fd)).mode & 0o777) !== FILE_MODE;
    if (umaskNarrows) await fchmod(fd, FILE_MODE);
    await fsync(fd);
  } finally {
    await close(fd);
  }
}

/**
 * A new name for an existing file, false where links are not supported (EPERM, another file system)
 * or `existing` is gone. link(2) never follows a link at `file` and fails with EEXIST (thrown) where
 * anything is. A link costs no new inode, which is most of what creating a file costs.
 */
export function tryLink(existing: string, file: string): boolean {
  try {
    fs.linkSync(existing, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw e;
    return false;
  }
}

/** mkdir -p where every directory it creates gets DIR_MODE; returns the first one it created. */
export function makeDirs(dir: string): string | undefined {
  const created = fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (created)
    for (let d = dir; ; d = path.dirname(d)) {
      if ((fs.lstatSync(d).mode & 0o777) !== DIR_MODE) fs.chmodSync(d, DIR_MODE);
      if (d === created || path.dirname(d) === d) break;
    }
  return created;
}

/** makeDirs through the thread pool: many at once overlap with the caller's work. */
export async function makeDirsAsync(dir: string): Promise<string | undefined> {
  const created = await fs.promises.mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (created)
    for (let d = dir; ; d = path.dirname(d)) {
      if (((await fs.promises.lstat(d)).mode & 0o777) !== DIR_MODE) await fs.promises.chmod(d, DIR_MODE);
      if (d === created || path.dirname(d) === d) break;
    }
  return created;
}

/** Removes a file or a link (never what a link points to); a directory there is an error. */
export function removeFile(file: string): void {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) throw new IoError(file, 'is a directory where rollgen owns a file; move it away');
  fs.unlinkSync(file);
}

export function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The output directory must be a real directory: a link there would send every write to its target. */
export function checkNotLink(dir: string): void {
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink())
    throw new InputError([], `${dir}: is a symbolic link; rollgen writes outputs only into real directories`);
  if (stat && !stat.isDirectory()) throw new InputError([], `${dir}: the output is not a directory`);
}
