import * as fs from 'fs';
import * as path from 'path';
import { InputError } from '../errors';
import { isPlainFileName } from '../model/file-name';
import { crashPoint } from './crash-points';
import { fsyncDir, removeFile } from './fs-safe';

/**
 * The journal layout of rollgen before the in-place staging of output-journal.ts, kept so that an
 * output an older rollgen left mid-write is still completed or discarded, and read as committed:
 *
 *   OUT/.rollgen-txn/N         staged files (numeric names)
 *   OUT/.rollgen-txn/journal   JSON {write: [{staged, name}], remove: [name]}: present = committed
 *
 * Nothing writes this layout any more; the next write after recovery uses the new one.
 */
export const TXN_DIR = '.rollgen-txn';
const JOURNAL = 'journal';

export interface JournalV1 {
  readonly write: readonly { readonly staged: string; readonly name: string }[];
  readonly remove: readonly string[];
}

/** Completes or discards what an interrupted older run left; returns what it did, for a note to the user. */
export function recoverOutputV1(dir: string): 'none' | 'completed' | 'discarded' {
  const txn = path.join(dir, TXN_DIR);
  const stat = fs.lstatSync(txn, { throwIfNoEntry: false });
  if (!stat) return 'none';
  const journal = stat.isDirectory() ? pendingChangesV1(dir) : undefined;
  if (!journal) {
    fs.rmSync(txn, { recursive: true, force: true });
    return 'discarded';
  }
  for (const w of journal.write) {
    const staged = path.join(txn, w.staged);
    if (!fs.lstatSync(staged, { throwIfNoEntry: false })) continue; // moved before the crash
    fs.renameSync(staged, path.join(dir, w.name));
    crashPoint('apply-file');
  }
  for (const name of journal.remove) {
    removeFile(path.join(dir, name));
    crashPoint('remove-file');
  }
  fsyncDir(dir);
  fs.rmSync(path.join(txn, JOURNAL), { force: true });
  crashPoint('journal-removed');
  fs.rmSync(txn, { recursive: true, force: true });
  return 'completed';
}

/** The committed but not yet applied journal of `dir`, checked as untrusted input (it could be committed to git). */
export function pendingChangesV1(dir: string): JournalV1 | undefined {
  // A link in place of the staging directory is not ours (recovery removes it): never read through it.
  if (!fs.lstatSync(path.join(dir, TXN_DIR), { throwIfNoEntry: false })?.isDirectory()) return undefined;
  const file = path.join(dir, TXN_DIR, JOURNAL);
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const shown = path.join(path.basename(dir), TXN_DIR, JOURNAL);
  let journal: JournalV1 | undefined;
  try {
    if (stat.isFile()) journal = JSON.parse(fs.readFileSync(file, 'utf8')) as JournalV1;
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
export function stagedPathV1(dir: string, journal: JournalV1, name: string): string | undefined {
  const entry = journal.write.find((w) => w.name === name);
  const staged = entry && path.join(dir, TXN_DIR, entry.staged);
  return staged && fs.lstatSync(staged, { throwIfNoEntry: false }) ? staged : undefined;
}

function wellFormed(j: JournalV1): boolean {
  return (
    Array.isArray(j.write) &&
    Array.isArray(j.remove) &&
    j.write.every((w) => typeof w?.staged === 'string' && /^\d+$/.test(w.staged) && isPlainFileName(w.name)) &&
    j.remove.every((r) => typeof r === 'string' && isPlainFileName(r))
  );
}

/** Staged entries still to move must be regular files: a link moved into the output would point anywhere. */
function stagedAreFiles(dir: string, j: JournalV1): boolean {
  return j.write.every((w) => {
    const stat = fs.lstatSync(path.join(dir, TXN_DIR, w.staged), { throwIfNoEntry: false });
    return !stat || stat.isFile();
  });
}
