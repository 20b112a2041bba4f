import * as fs from 'fs';
import * as path from 'path';
import { InputError, IoError } from '../errors';
import { isPlainFileName } from '../model/file-name';
import { crashPoint } from './crash-points';
import { flushAll, makeDirs, removeFile, writeNewFile, fsyncDir } from './fs-safe';

/**
 * Crash-safe replacement of an output's files, one write-ahead journal per run:
 *
 *  1. every new file is written under OUT/.rollgen-txn/ with a numeric name, and the journal (which
 *     staged file becomes which name, which names go) beside them as journal.tmp; all are fsynced;
 *  2. the journal is renamed into place and the staging directory fsynced: this is the commit point;
 *  3. each staged file is renamed over its name, removed names are unlinked;
 *  4. the journal, then the staging directory, are removed.
 *
 * A crash before 2 leaves the old files untouched (the next run discards the staging directory);
 * a crash after 2 is rolled forward by the next run (renames of files already moved are skipped).
 * At no instant is the output missing or empty, and readers see the committed state through the
 * journal (`pendingChanges`). Renames never follow a link at the target, and unlink removes a link,
 * not what it points to. Writing only changed files is the same journal with fewer entries.
 */
export const TXN_DIR = '.rollgen-txn';
const JOURNAL = 'journal';

export interface Journal {
  readonly write: readonly { readonly staged: string; readonly name: string }[];
  readonly remove: readonly string[];
}

export interface NewFile {
  readonly path: string;
  readonly content: string;
}

export interface OutputWrite {
  readonly dir: string;
  readonly files: readonly NewFile[];
  readonly remove: readonly string[];
}

/**
 * The four steps for several outputs at once: each step runs for every output before the next, and
 * the flushes of a step are issued together (fs-safe.ts flushAll), so N outputs cost three rounds of
 * disk flushes, not one flush per file. Each output keeps its own journal and commit point: after a
 * crash, each is its old state or its new one, whatever the others are. An error is thrown as an
 * OutputWriteError naming the output it belongs to.
 */
export async function commitOutputs(writes: readonly OutputWrite[]): Promise<void> {
  // 1. Staged files and journal: nothing is visible before the rename, so one flush covers both.
  const staged = writes.map((w) => inOutput(w.dir, () => stage(w)));
  await inOutputs(writes, () => flushAll(staged.flatMap((s) => s.paths)));
  // 2. The commit point of each output, made durable by flushing its staging directory.
  for (const w of writes) inOutput(w.dir, () => fs.renameSync(...journalNames(w.dir)));
  await inOutputs(writes, () => flushAll(writes.map((w) => path.join(w.dir, TXN_DIR))));
  writes.forEach(() => crashPoint('journal-committed'));
  // 3. and 4.
  writes.forEach((w, i) => inOutput(w.dir, () => applyJournal(w.dir, staged[i].journal, { flush: false })));
  await inOutputs(writes, () => flushAll(writes.map((w) => w.dir)));
  // Removals wait on the file system's journal: each output's in order, the outputs together.
  await Promise.all(writes.map((w) => blamed(w.dir, finishAsync(w.dir))));
}

/** Step 1 of one output: each new file, then the journal, under the staging directory (flushed later, with the others). */
function stage(w: OutputWrite): { journal: Journal; paths: string[] } {
  const txn = path.join(w.dir, TXN_DIR);
  fs.rmSync(txn, { recursive: true, force: true });
  makeDirs(txn);
  crashPoint('stage-dir');
  const write = w.files.map((f, i) => {
    writeNewFile(path.join(txn, String(i)), f.content, { flush: false });
    crashPoint('stage-file');
    return { staged: String(i), name: f.path };
  });
  const journal: Journal = { write, remove: w.remove.filter((r) => !w.files.some((f) => f.path === r)) };
  const [tmp] = journalNames(w.dir);
  writeNewFile(tmp, JSON.stringify(journal), { flush: false });
  crashPoint('journal-staged');
  return { journal, paths: [...write.map((e) => path.join(txn, e.staged)), tmp] };
}

const journalNames = (dir: string): [string, string] => [
  path.join(dir, TXN_DIR, `${JOURNAL}.tmp`),
  path.join(dir, TXN_DIR, JOURNAL),
];

/** An error while writing one output, with the output it belongs to (output-dir.ts reports it per output). */
export class OutputWriteError extends Error {
  constructor(
    readonly dir: string,
    readonly original: unknown,
  ) {
    super((original as Error)?.message ?? String(original));
  }
}

function inOutput<T>(dir: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    throw e instanceof OutputWriteError ? e : new OutputWriteError(dir, e);
  }
}

async function blamed<T>(dir: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    throw e instanceof OutputWriteError ? e : new OutputWriteError(dir, e);
  }
}

/** A flush of several outputs that failed: blamed on the first (the message names the file). */
async function inOutputs(writes: readonly OutputWrite[], step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (e) {
    const dir = writes.find((w) => String((e as NodeJS.ErrnoException).path ?? '').startsWith(w.dir))?.dir;
    throw new OutputWriteError(dir ?? writes[0].dir, e);
  }
}

/** Completes or discards what an interrupted run left; returns what it did, for a note to the user. */
export function recoverOutput(dir: string): 'none' | 'completed' | 'discarded' {
  const txn = path.join(dir, TXN_DIR);
  const stat = fs.lstatSync(txn, { throwIfNoEntry: false });
  if (!stat) return 'none';
  const journal = stat.isDirectory() ? pendingChanges(dir) : undefined;
  if (!journal) {
    fs.rmSync(txn, { recursive: true, force: true });
    return 'discarded';
  }
  applyJournal(dir, journal);
  finish(dir);
  return 'completed';
}

/** The committed but not yet applied journal of `dir`, checked as untrusted input (it could be committed to git). */
export function pendingChanges(dir: string): Journal | undefined {
  // A link in place of the staging directory is not ours (recovery removes it): never read through it.
  if (!fs.lstatSync(path.join(dir, TXN_DIR), { throwIfNoEntry: false })?.isDirectory()) return undefined;
  const file = path.join(dir, TXN_DIR, JOURNAL);
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const shown = path.join(path.basename(dir), TXN_DIR, JOURNAL);
  let journal: Journal | undefined;
  try {
    if (stat.isFile()) journal = JSON.parse(fs.readFileSync(file, 'utf8')) as Journal;
  } catch {
    journal = undefined;
  }
  if (!journal || !wellFormed(journal) || !stagedAreFiles(dir, journal))
    throw new InputError([
      {
        file: shown,
        line: 1,
        col: 1,
        message: `is not a journal rollgen wrote; delete ${TXN_DIR} (the output's files are the state before the interrupted run)`,
        severity: 'error',
      },
    ]);
  return journal;
}

/** Where a name's committed content is: the staged file while the journal still moves it, else the name itself. */
export function stagedPath(dir: string, journal: Journal | undefined, name: string): string {
  const entry = journal?.write.find((w) => w.name === name);
  const staged = entry && path.join(dir, TXN_DIR, entry.staged);
  return staged && fs.lstatSync(staged, { throwIfNoEntry: false }) ? staged : path.join(dir, name);
}

function wellFormed(j: Journal): boolean {
  return (
    Array.isArray(j.write) &&
    Array.isArray(j.remove) &&
    j.write.every((w) => typeof w?.staged === 'string' && /^\d+$/.test(w.staged) && isPlainFileName(w.name)) &&
    j.remove.every((r) => typeof r === 'string' && isPlainFileName(r))
  );
}

/** Staged entries still to move must be regular files: a link moved into the output would point anywhere. */
function stagedAreFiles(dir: string, j: Journal): boolean {
  return j.write.every((w) => {
    const stat = fs.lstatSync(path.join(dir, TXN_DIR, w.staged), { throwIfNoEntry: false });
    return !stat || stat.isFile();
  });
}

function applyJournal(dir: string, journal: Journal, { flush = true } = {}): void {
  for (const w of journal.write) {
    const staged = path.join(dir, TXN_DIR, w.staged);
    if (!fs.lstatSync(staged, { throwIfNoEntry: false })) continue; // moved before the crash
    fs.renameSync(staged, path.join(dir, w.name));
    crashPoint('apply-file');
  }
  for (const name of journal.remove) {
    removeFile(path.join(dir, name));
    crashPoint('remove-file');
  }
  if (flush) fsyncDir(dir);
}

async function finishAsync(dir: string): Promise<void> {
  const txn = path.join(dir, TXN_DIR);
  await fs.promises.rm(path.join(txn, JOURNAL), { force: true });
  crashPoint('journal-removed');
  await fs.promises.rm(txn, { recursive: true, force: true });
  crashPoint('staging-removed');
}

function finish(dir: string): void {
  const txn = path.join(dir, TXN_DIR);
  fs.rmSync(path.join(txn, JOURNAL), { force: true });
  crashPoint('journal-removed');
  fs.rmSync(txn, { recursive: true, force: true });
  crashPoint('staging-removed');
}

/** Refuses, before anything is written, a target the renames could not replace (a directory where a file goes). */
export function checkTargets(dir: string, names: readonly string[]): void {
  for (const name of names) {
    if (!isPlainFileName(name)) throw new IoError(dir, `refusing to write "${name}": not a plain file name`);
    const stat = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    if (stat?.isDirectory())
      throw new IoError(path.join(dir, name), 'is a directory where rollgen writes a file; move it away');
  }
}
