import * as fs from 'fs';
import * as path from 'path';
import { KUSTOMIZATION_FILE } from '../state/output-files';
import { writeNewFileFlushed } from './fs-safe';

/**
 * The guard that keeps a half-applied write from ever being built. A write that replaces more than
 * one name cannot be applied by one rename, so, right after its commit point, a "poison"
 * kustomization.yaml is renamed into place first: it lists a file that does not exist and whose name
 * says what happened, so every build of the output (`kubectl kustomize`, Argo CD, Flux) fails naming
 * it. The other names are then replaced, and the real new kustomization.yaml goes in last. Argo CD
 * and Flux build a directory with a kustomization file through kustomize, so at every instant the
 * output builds to its old state, fails naming the interrupted write, or builds to its new state; a
 * directory without one (a first deploy) holds only hidden staged names until the poison is in place,
 * and neither reads a name that does not end in .yaml, .yml or .json.
 */
export const ENTRY = KUSTOMIZATION_FILE;
/** The poison, staged and flushed with the new files (hidden, not a .yaml name: no tool reads it). */
export const GUARD_STAGED = '.rollgen-interrupted';
/** The resource the poison lists; never a file, so every build fails naming it. */
export const INTERRUPTED_RESOURCE = 'rollgen-write-interrupted-run-rollgen-again-to-complete-it.yaml';

/** The poison's bytes: the same on every run and machine. */
export const GUARD_TEXT =
  '# An interrupted rollgen run left this output half written. This kustomization fails every build\n' +
  '# (kubectl kustomize, Argo CD, Flux) until the write is completed: the next rollgen advance, abort,\n' +
  '# promote or retry of this app completes it first (`rollgen status` names it). Do not commit it.\n' +
  'apiVersion: kustomize.config.k8s.io/v1beta1\n' +
  'kind: Kustomization\n' +
  'resources:\n' +
  `  - ${INTERRUPTED_RESOURCE}\n`;

/** Whether a write of `staged` new names and `removed` ones needs the guard: more than one rename or unlink. */
export const needsGuard = (staged: number, removed: number): boolean => staged + removed > 1;

/** Stages the poison in `dir` (before the commit point), flushed like the new files. */
export const stageGuard = (dir: string): Promise<void> => writeNewFileFlushed(path.join(dir, GUARD_STAGED), GUARD_TEXT);

/** Whether `dir`'s kustomization.yaml is the poison (an interrupted write's guard). */
export function isGuarded(dir: string): boolean {
  const file = path.join(dir, ENTRY);
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  return (
    stat?.isFile() === true &&
    stat.size === Buffer.byteLength(GUARD_TEXT) &&
    fs.readFileSync(file, 'utf8') === GUARD_TEXT
  );
}

/**
 * The current kustomization.yaml of `dir`, to stage again as the write's last rename when the write
 * does not change it (the poison replaces it meanwhile); undefined where there is none.
 */
export function currentEntry(dir: string): string | undefined {
  const file = path.join(dir, ENTRY);
  return fs.lstatSync(file, { throwIfNoEntry: false })?.isFile() ? fs.readFileSync(file, 'utf8') : undefined;
}
