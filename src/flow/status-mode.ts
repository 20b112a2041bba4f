import * as path from 'path';
import { GitRunner } from '../io/git';
import { ModeView } from '../state/status-types';

/**
 * How the user moves an app, so `status` suggests commands that do what it says they do
 * (README "Status"): `advance` without `--commit` moves at once, `advance --commit` waits for a
 * gate, and in the PR flow `rollgen pr` opens the step's PR and merges it when its gate passes.
 *
 * - `--pr`: the PR flow.
 * - The output is not in git, has changes not committed, or was never committed: local, writing files.
 * - Otherwise the commit that last changed the output says: a GitHub merge of a rollgen PR
 *   (`Merge pull request #N from .../rollgen/...`, or a squash `rollgen(app): ... (#N)`) is the
 *   PR flow; `rollgen(app): ...` is `--commit`; anything else a person committed after writing.
 */
export function flowMode(
  git: GitRunner,
  top: string | undefined,
  output: string | undefined,
  viaPr: boolean,
  landingSha: string | undefined,
): ModeView {
  if (viaPr) return { name: 'pr', why: 'read through GitHub with --pr' };
  if (!top || !output) return { name: 'local', why: 'the output is not in a git work tree' };
  const rel = path.relative(top, path.resolve(output)) || '.';
  if (git(['status', '--porcelain', '--', rel], top).trim() !== '')
    return { name: 'local', why: 'the output has changes that are not committed' };
  if (!landingSha) return { name: 'local', why: 'nothing in the output is committed yet' };
  const subject = git(['log', '-1', '--format=%s', landingSha], top).trim();
  const short = landingSha.slice(0, 10);
  if (/^Merge pull request #\d+ from \S*rollgen\//.test(subject) || /^rollgen\(.+\): .* \(#\d+\)$/.test(subject))
    return { name: 'pr', why: `the output's last change, ${short}, is a merged rollgen PR` };
  if (subject.startsWith('rollgen('))
    return { name: 'commit', why: `the output's last change, ${short}, was committed by rollgen --commit` };
  return { name: 'local', why: `the output's last change, ${short}, was committed by hand` };
}
