import * as fs from 'fs';
import * as path from 'path';
import { InputError, IoError } from '../errors';
import { isPlainFileName } from '../model/file-name';
import { crashPoint } from './crash-points';
import { flushAll, fsyncDir, removeFile, tryLink, writeNewFile, writeNewFileFlushed } from './fs-safe';
import { LOCK_FILE, removeLockTemps } from './output-lock';
import { ENTRY, GUARD_STAGED, currentEntry, isGuarded, needsGuard } from './output-guard';
import { TXN_DIR, pendingChangesV1, recoverOutputV1, stagedPathV1 } from './output-journal-v1';

/**
 * Crash-safe replacement of an output's files, staged in the output itself under hidden names:
 *
 *   OUT/.NAME.rollgen-new   the new content of NAME
 *   OUT/.NAME.rollgen-del   NAME goes
 *   OUT/.rollgen-commit     present = committed
 *
 *  1. every new file is written as `.NAME.rollgen-new` and flushed; a removal is marked by
 *     `.NAME.rollgen-del`;
 *  2. `.rollgen-commit` is created and the output directory flushed: this is the commit point;
 *  3. where more than one name changes, the poison kustomization.yaml staged with the new files is
 *     renamed into place first (output-guard.ts: every build fails naming the interrupted write);
 *     each staged file is renamed over its name, each removed name unlinked (then its mark), the new
 *     kustomization.yaml last, and the directory flushed;
 *  4. `.rollgen-commit` is removed.
 *
 * A crash before 2 leaves the old files untouched (the next run discards the staged names); a crash
 * after 2 is rolled forward by the next run (what is still staged is moved, what is still marked is
 * removed). At no instant is the output missing or empty, and readers see the committed state
 * (`pendingChanges`). The marks are hard links to the run's lock (output-lock.ts), so beside the
 * new files a write creates no inode (no staging directory, no journal file): on most file systems
 * creating and deleting inodes is what a small write costs. Renames never follow a link at the
 * target, and unlink removes a link, not what it points to. Writing only changed files is the same
 * with fewer names. An output an older rollgen left mid-write (output-journal-v1.ts) is recovered too.
 */
export const COMMIT_MARK = '.rollgen-commit';
const STAGED = '.rollgen-new';
const REMOVED = '.rollgen-del';
const MARKED = /^\.(.+)\.rollgen-(new|del)$/;
/** The longest name that still has room for its staged name within the usual 255-byte limit. */
const MAX_NAME = 255 - `.${STAGED}`.length;

export interface NewFile {
  readonly path: string;
  readonly content: string;
}

export interface OutputWrite {
  readonly dir: string;
  readonly files: readonly NewFile[];
  readonly remove: readonly string[];
  /** The write is guarded (output-guard.ts): its poison is staged beside its new files. */
  readonly guard?: boolean;
}

/** What a committed, not yet applied write of an output still changes, as readers must see it. */
export interface PendingChanges {
  /** Names whose committed content is still staged: name -> the staged file. */
  readonly staged: ReadonlyMap<string, string>;
  readonly remove: ReadonlySet<string>;
}

const stagedName = (name: string) => `.${name}${STAGED}`;
const removedName = (name: string) => `.${name}${REMOVED}`;

/**
 * Step 1 for one new file: written under its staged name and flushed (the thread pool writes many
 * at once: output-staging.ts). An error names the output.
 */
export async function stageFile(dir: string, file: NewFile): Promise<void> {
  await blamed(dir, writeNewFileFlushed(path.join(dir, stagedName(file.path)), file.content));
  crashPoint('stage-file');
}

/**
 * `w` as it is staged: where it changes more than one name, guarded, with the current kustomization.yaml
 * staged again when the write does not change it (the poison replaces it until the last rename).
 */
export function guardedWrite(w: OutputWrite): OutputWrite {
  const removals = w.remove.filter((r) => !w.files.some((f) => f.path === r));
  if (!needsGuard(w.files.length, removals.length)) return w;
  const entryChanges = w.files.some((f) => f.path === ENTRY) || removals.includes(ENTRY);
  const current = entryChanges ? undefined : currentEntry(w.dir);
  const files = current === undefined ? w.files : [...w.files, { path: ENTRY, content: current }];
  return { ...w, files, guard: true };
}

/**
 * Steps 2 to 4 for outputs whose new files are staged and flushed: each step runs for every output
 * before the next, and the flushes of a step are issued together, so N outputs cost two rounds of
 * directory flushes, not one flush per output. Each output keeps its own commit point: after a crash,
 * each is its old state or its new one, whatever the others are. Errors are OutputWriteErrors.
 */
export async function commitStaged(writes: readonly OutputWrite[]): Promise<void> {
  const removals = writes.map((w) => w.remove.filter((r) => !w.files.some((f) => f.path === r)));
  writes.forEach((w, i) => inOutput(w.dir, () => removals[i].forEach((r) => mark(w.dir, removedName(r)))));
  // The commit point of each output, made durable with its staged names by one flush of the directory.
  for (const w of writes) inOutput(w.dir, () => mark(w.dir, COMMIT_MARK));
  await inOutputs(writes, () => flushAll(writes.map((w) => w.dir)));
  writes.forEach(() => crashPoint('journal-committed'));
  const names = (w: OutputWrite) => w.files.map((f) => f.path);
  writes.forEach((w, i) => inOutput(w.dir, () => apply(w.dir, names(w), removals[i])));
  await inOutputs(writes, () => flushAll(writes.map((w) => w.dir)));
  // Unlinks wait on the file system's journal: issued together, they share it.
  const unmark = (dir: string) =>
    fs.promises.unlink(path.join(dir, COMMIT_MARK)).then(() => crashPoint('journal-removed'));
  await Promise.all(writes.map((w) => blamed(w.dir, unmark(w.dir))));
}

/** A mark (a removal or the commit): a link to the run's lock, or an empty file where there is none. */
function mark(dir: string, name: string): void {
  if (!tryLink(path.join(dir, LOCK_FILE), path.join(dir, name)))
    writeNewFile(path.join(dir, name), '', { flush: false });
  crashPoint(name === COMMIT_MARK ? 'commit-mark' : 'stage-remove');
}

/**
 * Step 3 (for a run and for recovery alike): puts the poison in place where it is staged, moves what
 * is staged, removes what is marked, and the kustomization last; idempotent.
 */
function apply(dir: string, staged: readonly string[], removed: readonly string[]): void {
  if (fs.lstatSync(path.join(dir, GUARD_STAGED), { throwIfNoEntry: false })) {
    fs.renameSync(path.join(dir, GUARD_STAGED), path.join(dir, ENTRY));
    crashPoint('guard');
  }
  for (const name of staged) if (name !== ENTRY) move(dir, name);
  for (const name of removed) if (name !== ENTRY) remove(dir, name);
  if (staged.includes(ENTRY)) move(dir, ENTRY);
  else if (removed.includes(ENTRY) || isGuarded(dir)) remove(dir, ENTRY);
}

function move(dir: string, name: string): void {
  fs.renameSync(path.join(dir, stagedName(name)), path.join(dir, name));
  crashPoint('apply-file');
}

function remove(dir: string, name: string): void {
  removeFile(path.join(dir, name));
  fs.rmSync(path.join(dir, removedName(name)), { force: true });
  crashPoint('remove-file');
}

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

/** A flush of several outputs that failed: blamed on the output of the path in the error. */
async function inOutputs(writes: readonly OutputWrite[], step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (e) {
    const dir = writes.find((w) => (e as NodeJS.ErrnoException).path === w.dir)?.dir;
    throw new OutputWriteError(dir ?? writes[0].dir, e);
  }
}

/** The staged and removal marks in an output's entries, by the names they stand for. */
function marks(entries: readonly string[]): { staged: string[]; removed: string[] } {
  const staged: string[] = [];
  const removed: string[] = [];
  for (const e of entries) {
    const m = MARKED.exec(e);
    if (m && isPlainFileName(m[1])) (m[2] === 'new' ? staged : removed).push(m[1]);
  }
  return { staged, removed };
}

/**
 * Completes or discards what an interrupted run left; returns what it did, for a note to the user.
 * A poison kustomization.yaml without its commit mark (an output copied or committed mid-write) stays:
 * the write it guarded is not here to complete, and without it the output would build half written.
 * Readers take it for a missing kustomization (drift: `--force` writes the output anew).
 */
export function recoverOutput(dir: string): 'none' | 'completed' | 'discarded' {
  const older = recoverOutputV1(dir);
  const entries = fs.readdirSync(dir);
  removeLockTemps(dir, entries);
  const { staged, removed } = marks(entries);
  if (checkedCommit(dir, entries, staged)) {
    apply(dir, staged, removed);
    fsyncDir(dir);
    fs.rmSync(path.join(dir, COMMIT_MARK));
    crashPoint('journal-removed');
    return 'completed';
  }
  if (staged.length === 0 && removed.length === 0 && !entries.includes(GUARD_STAGED)) return older;
  discard(dir, staged, removed);
  return 'discarded';
}

function discard(dir: string, staged: readonly string[], removed: readonly string[]): void {
  for (const name of [...staged.map(stagedName), ...removed.map(removedName), GUARD_STAGED])
    removeFile(path.join(dir, name));
}

/**
 * The committed but not yet applied changes of `dir` (`entries`: its names), checked as untrusted
 * input (they could be committed to git); undefined when nothing is committed.
 */
export function pendingChanges(dir: string, entries: readonly string[]): PendingChanges | undefined {
  if (entries.includes(TXN_DIR)) {
    const v1 = pendingChangesV1(dir);
    if (v1) {
      const staged = v1.write.flatMap((w) => {
        const file = stagedPathV1(dir, v1, w.name);
        return file ? [[w.name, file] as const] : [];
      });
      return { staged: new Map(staged), remove: new Set(v1.remove) };
    }
  }
  const { staged, removed } = marks(entries);
  if (!checkedCommit(dir, entries, staged)) return undefined;
  return { staged: new Map(staged.map((n) => [n, path.join(dir, stagedName(n))])), remove: new Set(removed) };
}

/** Whether `dir` holds a commit mark; refused where it, or a staged file it would move, is not a regular file. */
function checkedCommit(dir: string, entries: readonly string[], staged: readonly string[]): boolean {
  if (!entries.includes(COMMIT_MARK)) return false;
  const guard = entries.includes(GUARD_STAGED) ? [GUARD_STAGED] : [];
  const notFile = [COMMIT_MARK, ...staged.map(stagedName), ...guard].find(
    (n) => !fs.lstatSync(path.join(dir, n)).isFile(),
  );
  if (notFile === undefined) return true;
  throw new InputError([
    {
      file: path.join(path.basename(dir), notFile),
      line: 1,
      col: 1,
      message: `is not a file rollgen wrote; delete ${COMMIT_MARK}, ${GUARD_STAGED} and the .*${STAGED} names beside it (the output's files are the state before the interrupted run)`,
      severity: 'error',
    },
  ]);
}

/** Refuses, before anything is written, a target the renames could not replace (a directory where a file goes). */
export function checkTargets(dir: string, names: readonly string[]): void {
  for (const name of names) {
    if (!isPlainFileName(name)) throw new IoError(dir, `refusing to write "${name}": not a plain file name`);
    if (name.length > MAX_NAME)
      throw new IoError(dir, `refusing to write "${name}": over ${MAX_NAME} characters, no room for its staged name`);
    const stat = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    if (stat?.isDirectory())
      throw new IoError(path.join(dir, name), 'is a directory where rollgen writes a file; move it away');
  }
}

/** Removes what an uncommitted write of `dir` staged (after a failure: the output is its old state). */
export function discardUncommitted(dir: string): void {
  if (!fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  const entries = fs.readdirSync(dir);
  if (entries.includes(COMMIT_MARK)) return;
  const { staged, removed } = marks(entries);
  discard(dir, staged, removed);
}

export const isCommitted = (dir: string): boolean =>
  fs.lstatSync(path.join(dir, COMMIT_MARK), { throwIfNoEntry: false }) !== undefined ||
  pendingChangesV1(dir) !== undefined;
