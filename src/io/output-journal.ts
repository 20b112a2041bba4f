import * as fs from 'fs';
import * as path from 'path';
import { InputError, IoError } from '../errors';
import { isPlainFileName } from '../model/file-name';
import { crashPoint } from './crash-points';
import { makeDirs, removeFile, writeNewFile, fsyncDir } from './fs-safe';

/**
 * Crash-safe replacement of an output's files, one write-ahead journal per run:
 *
 *  1. every new file is written (and fsynced) under OUT/.rollgen-txn/ with a numeric name;
 *  2. the journal (which staged file becomes which name, which names go) is renamed into place:
 *     this rename is the commit point;
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

export function commitFiles(dir: string, files: readonly NewFile[], remove: readonly string[]): void {
  const txn = path.join(dir, TXN_DIR);
  fs.rmSync(txn, { recursive: true, force: true });
  makeDirs(txn);
  crashPoint('stage-dir');
  const write = files.map((f, i) => {
    writeNewFile(path.join(txn, String(i)), f.content);
    crashPoint('stage-file');
    return { staged: String(i), name: f.path };
  });
  const journal: Journal = { write, remove: remove.filter((r) => !files.some((f) => f.path === r)) };
  writeNewFile(path.join(txn, `${JOURNAL}.tmp`), JSON.stringify(journal));
  crashPoint('journal-staged');
  fs.renameSync(path.join(txn, `${JOURNAL}.tmp`), path.join(txn, JOURNAL));
  fsyncDir(txn);
  crashPoint('journal-committed');
  applyJournal(dir, journal);
  finish(dir);
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

function applyJournal(dir: string, journal: Journal): void {
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
  fsyncDir(dir);
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
