import * as path from 'path';
import { indexByPath } from '../io/confine';
import { GitRunner } from '../io/git';
import { ModeView } from '../state/status-types';
import { dirsHolding, literal, pathBatches, repoPath } from './git-paths';

/** An app as status-mode reads it: its output directory and the commit that last changed it. */
export interface ModeQuery {
  readonly output: string | undefined;
  readonly landingSha: string | undefined;
}

/**
 * How the user moves each app, so `status` suggests commands that do what it says they do
 * (README "Status"): `advance` without `--commit` moves at once, `advance --commit` waits for a
 * gate, and in the PR flow `rollgen pr` opens the step's PR and merges it when its gate passes.
 *
 * - `--pr`: the PR flow.
 * - The output is not in git, has changes not committed, or was never committed: local, writing files.
 * - Otherwise the commit that last changed the output says: a GitHub merge of a rollgen PR
 *   (`Merge pull request #N from .../rollgen/...`, or a squash `rollgen(app): ... (#N)`) is the
 *   PR flow; `rollgen(app): ...` is `--commit`; anything else a person committed after writing.
 *
 * Two git calls for all apps (a batch per ~100 KB of paths), not two per app.
 */
export function flowModes(
  git: GitRunner,
  top: string | undefined,
  apps: readonly ModeQuery[],
  viaPr: boolean,
): ModeView[] {
  if (viaPr) return apps.map(() => ({ name: 'pr', why: 'read from the code host with --pr' }));
  const inside = (o: string | undefined) =>
    top !== undefined && o !== undefined && !repoPath(top, path.resolve(o)).startsWith('..');
  const dirty = top
    ? uncommitted(
        git,
        top,
        apps.map((a) => (inside(a.output) ? a.output! : undefined)),
      )
    : new Set();
  const shas = [
    ...new Set(apps.flatMap((a, i) => (inside(a.output) && !dirty.has(i) && a.landingSha ? [a.landingSha] : []))),
  ];
  const subjects = top && shas.length > 0 ? subjectsOf(git, top, shas) : new Map<string, string>();
  return apps.map((a, i) => {
    if (a.output === undefined)
      return { name: 'local', why: 'no output named: commands write to the OUT you give them' };
    if (!inside(a.output)) return { name: 'local', why: 'the output is not in a git work tree' };
    if (dirty.has(i)) return { name: 'local', why: 'the output has changes that are not committed' };
    if (!a.landingSha) return { name: 'local', why: 'nothing in the output is committed yet' };
    return modeOfCommit(a.landingSha, subjects.get(a.landingSha) ?? '');
  });
}

function modeOfCommit(sha: string, subject: string): ModeView {
  const short = sha.slice(0, 10);
  if (/^Merge pull request #\d+ from \S*rollgen\//.test(subject) || /^rollgen\(.+\): .* \(#\d+\)$/.test(subject))
    return { name: 'pr', why: `the output's last change, ${short}, is a merged rollgen PR` };
  if (subject.startsWith('rollgen('))
    return { name: 'commit', why: `the output's last change, ${short}, was committed by rollgen --commit` };
  return { name: 'local', why: `the output's last change, ${short}, was committed by hand` };
}

/** The apps (by index) whose output has changes git has not committed (untracked files included). */
function uncommitted(git: GitRunner, top: string, outputs: readonly (string | undefined)[]): Set<number> {
  const byDir = indexByPath(outputs.map((o) => (o ? repoPath(top, path.resolve(o)) : undefined)));
  const dirty = new Set<number>();
  for (const batch of pathBatches([...byDir.keys()])) {
    const out = git(['status', '--porcelain', '-z', '--untracked-files=all', '--', ...batch.map(literal)], top);
    for (const file of porcelainPaths(out))
      for (const apps of dirsHolding(byDir, file)) for (const i of apps) dirty.add(i);
  }
  return dirty;
}

/** `git status --porcelain -z`: `XY path\0` per entry; a rename or copy (X or Y `R`/`C`) has its source path as the next entry. */
function porcelainPaths(out: string): string[] {
  const entries = out.split('\0');
  const paths: string[] = [];
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k];
    if (e.length < 4) continue;
    paths.push(e.slice(3));
    if (/[RC]/.test(e.slice(0, 2)) && k + 1 < entries.length) paths.push(entries[++k]);
  }
  return paths;
}

/** The subject of each commit. */
function subjectsOf(git: GitRunner, top: string, shas: readonly string[]): Map<string, string> {
  const out = git(['show', '-s', '--format=%H %s%x00', ...shas], top);
  const subjects = new Map<string, string>();
  for (const record of out.split('\0')) {
    const line = record.replace(/^\n/, '');
    const space = line.indexOf(' ');
    if (space > 0) subjects.set(line.slice(0, space), line.slice(space + 1));
  }
  return subjects;
}
