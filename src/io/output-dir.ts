import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic } from '../diagnostics';
import { InputError, IoError } from '../errors';
import { RenderedFile } from '../state/output-files';
import { checkNotLink } from './fs-safe';
import { TXN_DIR, checkTargets, commitFiles, pendingChanges, stagedPath } from './output-journal';

export interface OutputContents {
  readonly files: readonly { readonly path: string; readonly text: string }[];
}

/**
 * Reads every YAML file at the top of the output directory as the last committed run left it (an
 * interrupted run's journal included); a missing directory is an empty output. Links are refused:
 * rollgen reads and writes nothing through them.
 */
export function readOutputDir(dir: string | undefined, cwd: string): OutputContents {
  if (!dir || !fs.lstatSync(dir, { throwIfNoEntry: false })) return { files: [] };
  checkNotLink(dir);
  const journal = pendingChanges(dir);
  const names = new Set(fs.readdirSync(dir).filter((n) => /\.ya?ml$/.test(n) && !n.startsWith('.')));
  for (const w of journal?.write ?? []) names.add(w.name);
  for (const r of journal?.remove ?? []) names.delete(r);
  const problems: Diagnostic[] = [];
  const files = [...names].sort(compareCodePoints).flatMap((n) => {
    const shown = path.relative(cwd, path.join(dir, n)) || n;
    const source = stagedPath(dir, journal, n);
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
  return { files };
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Replaces the output directory's managed files crash-safely (see output-journal.ts): a failure or
 * a crash at any instant leaves the old files or the new ones, never a missing or empty output.
 * The caller holds the output's lock (output-lock.ts) from reading the status to this write.
 */
export function writeOutputDir(dir: string, files: readonly RenderedFile[], remove: readonly string[]): void {
  try {
    checkNotLink(dir);
    checkTargets(dir, [...files.map((f) => f.path), ...remove]);
    commitFiles(dir, files, remove);
  } catch (e) {
    if (e instanceof IoError || e instanceof InputError) throw e;
    // Before the journal's commit nothing changed; after it, the next run completes the write.
    const committed = pendingChanges(dir) !== undefined;
    if (!committed) fs.rmSync(path.join(dir, TXN_DIR), { recursive: true, force: true });
    const state = committed ? 'the next rollgen run completes it' : 'it is unchanged';
    throw new IoError(dir, `could not write the output; ${state} (${(e as Error).message})`, { cause: e });
  }
}
