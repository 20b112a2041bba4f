import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, compareText } from '../diagnostics';
import { InputError, IoError } from '../errors';
import { RenderedFile } from '../state/output-files';
import { checkNotLink } from './fs-safe';
import { OutputWriteError, checkTargets, discardUncommitted, isCommitted, pendingChanges } from './output-journal';
import { ENTRY, INTERRUPTED_RESOURCE, isGuarded } from './output-guard';
import { OutputStaging } from './output-staging';

export interface OutputContents {
  readonly files: readonly { readonly path: string; readonly text: string }[];
  /** What an interrupted write left, for read-only commands to name (a writing run completes it first). */
  readonly interrupted?: string;
}

/**
 * Reads every YAML file at the top of the output directory as the last committed run left it (an
 * interrupted run's journal included); a missing directory is an empty output. Links are refused:
 * rollgen reads and writes nothing through them.
 */
export function readOutputDir(dir: string | undefined, cwd: string): OutputContents {
  if (!dir || !fs.lstatSync(dir, { throwIfNoEntry: false })) return { files: [] };
  checkNotLink(dir);
  const entries = fs.readdirSync(dir);
  const pending = pendingChanges(dir, entries);
  const names = new Set(entries.filter((n) => /\.ya?ml$/.test(n) && !n.startsWith('.')));
  for (const n of pending?.staged.keys() ?? []) names.add(n);
  for (const r of pending?.remove ?? []) names.delete(r);
  // The poison of an interrupted write is never read as the output's kustomization (output-guard.ts).
  const guarded = isGuarded(dir);
  if (guarded && !pending?.staged.has(ENTRY)) names.delete(ENTRY);
  const problems: Diagnostic[] = [];
  const files = [...names].sort(compareText).flatMap((n) => {
    const shown = path.relative(cwd, path.join(dir, n)) || n;
    const source = pending?.staged.get(n) ?? path.join(dir, n);
    const stat = fs.lstatSync(source);
    if (stat.isFile()) return [{ path: shown, text: fs.readFileSync(source, 'utf8') }];
    const what = stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
    problems.push({
      file: shown,
      line: 1,
      col: 1,
      message: `is ${what}; rollgen reads and writes no links in the output: replace it with a file`,
      severity: 'error',
    });
    return [];
  });
  if (problems.length > 0) throw new InputError(problems);
  const interrupted = pending || guarded ? interruptedNote(path.relative(cwd, dir) || '.', !!pending) : undefined;
  return interrupted ? { files, interrupted } : { files };
}

/** What status and validate say of an output an interrupted write left. */
function interruptedNote(dir: string, committed: boolean): string {
  return committed
    ? `${dir} holds a write an interrupted rollgen run committed but did not finish applying (until it ` +
        `is, builds fail naming ${INTERRUPTED_RESOURCE} or give the old state); shown here as written. The ` +
        'next rollgen advance, abort, promote or retry of this app completes it first'
    : `${dir}/${ENTRY} is the guard of a write interrupted elsewhere (the output was copied or committed ` +
        `mid-write): every build fails naming ${INTERRUPTED_RESOURCE}. Restore the output from git ` +
        `(\`git checkout -- ${dir}\`), or write it anew: the app's advance, abort, promote or retry with --force`;
}

export interface OutputDirWrite {
  readonly dir: string;
  readonly files: readonly RenderedFile[];
  readonly remove: readonly string[];
}

/** The writes of one run, handed over output by output as they are planned (see writeOutputDirs). */
export interface OutputDirWrites {
  /** Checks `w`'s targets (an error writes nothing of `w`) and starts staging its files. */
  readonly add: (w: OutputDirWrite) => void;
  /** Makes every added output's new files visible, crash-safely. */
  readonly commit: () => Promise<void>;
  /** Drops what was staged: every output stays as it was. */
  readonly discard: () => Promise<void>;
}

/**
 * Replaces the managed files of each output directory crash-safely (see output-journal.ts): a
 * failure or a crash at any instant leaves each output's old files or its new ones, never a missing
 * or empty output. Every target is checked before anything is visible; on a failure, outputs not yet
 * committed are left unchanged and the error names the output. The caller holds the outputs' locks
 * (output-lock.ts) from reading their status to this write.
 */
export async function writeOutputDirs(writes: readonly OutputDirWrite[]): Promise<void> {
  const run = startOutputWrites();
  try {
    writes.forEach(run.add);
  } catch (e) {
    await run.discard();
    throw e;
  }
  await run.commit();
}

/** writeOutputDirs in parts: a run stages each output as soon as it is planned, while it plans the next. */
export function startOutputWrites(): OutputDirWrites {
  const staging = new OutputStaging();
  const dirs: string[] = [];
  return {
    add: (w) => {
      checkNotLink(w.dir);
      checkTargets(w.dir, [...w.files.map((f) => f.path), ...w.remove]);
      dirs.push(w.dir);
      staging.add({ dir: w.dir, files: w.files.map((f) => ({ path: f.path, content: f.content })), remove: w.remove });
    },
    commit: () => committed(staging, dirs),
    discard: () => staging.discard(),
  };
}

async function committed(staging: OutputStaging, dirs: readonly string[]): Promise<void> {
  try {
    await staging.commit();
  } catch (e) {
    const failure = e instanceof OutputWriteError ? e : new OutputWriteError(dirs[0] ?? '.', e);
    // Before its commit point an output is unchanged; after it, the next run completes the write.
    for (const d of dirs) discardUncommitted(d);
    if (failure.original instanceof IoError || failure.original instanceof InputError) throw failure.original;
    const state = isCommitted(failure.dir) ? 'the next rollgen run completes it' : 'it is unchanged';
    throw new IoError(failure.dir, `could not write the output; ${state} (${failure.message})`, {
      cause: failure.original,
    });
  }
}
