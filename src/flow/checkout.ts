import * as fs from 'fs';
import * as path from 'path';
import { InputError, StateError } from '../errors';
import { GitRunner, gitTopLevel } from '../io/git';
import { PrConfig } from '../io/config';
import { TemplateSource } from './templates';

/** The base branch as this checkout holds it: rollgen reads files and history here, and parents every PR commit on HEAD. */
export interface Checkout {
  readonly root: string;
  readonly base: string;
  readonly head: string;
  readonly tree: string;
  /** A shallow clone: history stops at its graft (see readAppHistories). */
  readonly shallow: boolean;
  /** Content of a repository path at HEAD (the work tree is checked clean first). */
  readonly read: (repoPath: string) => string | undefined;
}

export function readCheckout(
  git: GitRunner,
  dir: string,
  pr: PrConfig,
  baseFlag: string | undefined,
  paths: readonly string[],
): Checkout {
  const { root, branch, commit } = describeCheckout(git, dir);
  const base = baseFlag ?? pr.base ?? branch;
  if (!base) throw new InputError([], 'HEAD is detached: name the base branch with --base or pr.base in rollgen.yaml');
  if (branch && branch !== base)
    throw new StateError(`the checkout is on ${branch} but PRs target ${base}; run on a checkout of ${base}`);
  const rel = paths.map((p) => path.relative(root, p) || '.');
  const dirty = git(['status', '--porcelain', '--untracked-files=all', '--', ...rel], root).trim();
  if (dirty)
    throw new StateError(
      `uncommitted changes under the apps' sources or outputs; rollgen proposes PRs from the committed ${base}:\n${dirty}`,
    );
  const read = (repoPath: string) => {
    const file = path.join(root, repoPath);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  };
  return { root, base, ...commit(), read };
}

interface CheckoutIds {
  readonly root: string;
  /** The branch HEAD is on; undefined when detached. */
  readonly branch: string | undefined;
  /** HEAD's commit and tree, and whether the clone is shallow. */
  readonly commit: () => { readonly head: string; readonly tree: string; readonly shallow: boolean };
}

/**
 * The checkout's top directory, branch, HEAD commit and tree and whether it is shallow, in one git start when HEAD is a commit on
 * a local branch or detached (a `rollgen pr` run reads the checkout once per command, tests thousands of
 * times). Otherwise (not a checkout, a branch without commits yet, HEAD elsewhere) step by step, so
 * each problem is reported as itself; HEAD's ids are read only once the checkout passed its checks.
 */
function describeCheckout(git: GitRunner, dir: string): CheckoutIds {
  let lines: string[] = [];
  try {
    const ids = ['--is-shallow-repository', 'HEAD', 'HEAD^{tree}', '--symbolic-full-name', 'HEAD'];
    lines = git(['rev-parse', '--show-toplevel', ...ids], dir)
      .trim()
      .split('\n');
  } catch {
    // described step by step below
  }
  const [root, shallow, head, tree, ref] = lines;
  if (lines.length === 5 && (ref === 'HEAD' || ref.startsWith(BRANCH_REF))) {
    const branch = ref === 'HEAD' ? undefined : ref.slice(BRANCH_REF.length);
    return { root, branch, commit: () => ({ head, tree, shallow: shallow === 'true' }) };
  }
  const top = gitTopLevel(git, dir);
  if (!top) throw new StateError(`${dir} is not in a git checkout; rollgen reads the base branch from one`);
  const commit = () => {
    const [shallow, head, tree] = git(['rev-parse', '--is-shallow-repository', 'HEAD', 'HEAD^{tree}'], top)
      .trim()
      .split('\n');
    return { head, tree, shallow: shallow === 'true' };
  };
  return { root: top, branch: currentBranch(git, top), commit };
}

const BRANCH_REF = 'refs/heads/';

function currentBranch(git: GitRunner, root: string): string | undefined {
  try {
    return git(['symbolic-ref', '--quiet', '--short', 'HEAD'], root).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A template named in rollgen.yaml, or undefined for the default. */
export function readTemplate(file: string | undefined, cwd: string, configFile: string): TemplateSource | undefined {
  if (!file) return undefined;
  const shown = path.relative(cwd, file) || file;
  if (!fs.existsSync(file))
    throw new InputError([
      {
        file: path.relative(cwd, configFile) || configFile,
        line: 1,
        col: 1,
        message: `pr: template ${shown} does not exist`,
        severity: 'error',
      },
    ]);
  return { file: shown, text: fs.readFileSync(file, 'utf8') };
}
