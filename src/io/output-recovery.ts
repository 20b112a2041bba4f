import * as fs from 'fs';
import * as path from 'path';
import { recoverOutput } from './output-journal';
import { LOCK_FILE } from './output-lock';

/**
 * What the next writing run does first, under the output's lock: completes a committed journal or
 * discards an uncommitted one, and restores what rollgen before the journal left after a crash
 * between its two renames (the output moved to `.OUT.rollgen-PID.old`, nothing in its place), so
 * such a crash is never mistaken for a first deploy. Returns notes for stderr.
 */
export function recoverOutputDirs(dirs: readonly string[]): string[] {
  const leftovers = legacyLeftovers(dirs);
  return dirs.flatMap((dir) => recoverOutputDir(dir, leftovers.get(path.dirname(dir)) ?? []));
}

/**
 * The names in each output's parent that could be an older rollgen's leftovers (`.NAME.rollgen-*`):
 * each parent is listed once per run, not once per output (a parent of 1,000 outputs has 1,000 entries).
 */
function legacyLeftovers(dirs: readonly string[]): Map<string, string[]> {
  const byParent = new Map<string, string[]>();
  for (const parent of new Set(dirs.map((d) => path.dirname(d)))) {
    const entries = fs.existsSync(parent) ? fs.readdirSync(parent) : [];
    byParent.set(
      parent,
      entries.filter((n) => n.startsWith('.') && n.includes('.rollgen-')),
    );
  }
  return byParent;
}

function recoverOutputDir(dir: string, candidates: readonly string[]): string[] {
  const notes = recoverLegacy(dir, candidates);
  const done = fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() ? recoverOutput(dir) : 'none';
  if (done === 'completed') notes.push(`completed the write an interrupted rollgen run committed to ${dir}`);
  if (done === 'discarded') notes.push(`discarded the unfinished write of an interrupted rollgen run in ${dir}`);
  return notes;
}

function recoverLegacy(dir: string, candidates: readonly string[]): string[] {
  const parent = path.dirname(dir);
  const prefix = `.${path.basename(dir)}.rollgen-`;
  const leftovers = candidates.filter((n) => n.startsWith(prefix) && /^\d+(\.old)?$/.test(n.slice(prefix.length)));
  const notes: string[] = [];
  for (const name of leftovers.sort()) {
    const full = path.join(parent, name);
    if (!fs.lstatSync(full).isDirectory()) continue; // not ours: rollgen made only directories
    if (name.endsWith('.old') && onlyOurLock(dir)) {
      for (const entry of fs.readdirSync(full)) fs.renameSync(path.join(full, entry), path.join(dir, entry));
      fs.rmdirSync(full);
      notes.push(`restored ${dir} from ${name}, left by a rollgen run that crashed while replacing it`);
    } else {
      fs.rmSync(full, { recursive: true, force: true });
      notes.push(`removed ${name}, left by an interrupted rollgen run`);
    }
  }
  return notes;
}

/** The output as the lock left it when the crash had moved the real one aside: made just now, holding only the lock. */
function onlyOurLock(dir: string): boolean {
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  return entries.every((e) => e === LOCK_FILE);
}
