import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readCheckout } from '../../src/flow/checkout';
import { GitRunner, runGit } from '../../src/io/git';
import { PrConfig } from '../../src/io/config';
import { git } from '../helpers/git-repo';

const PR: PrConfig = { labels: [], mergeMethod: 'merge', maxRequests: 400, workflow: 'rollgen.yml' };
const AT = new Date('2026-01-01T00:00:00Z');
let repo: string;
let starts: string[];
/** The real git, counting its starts. */
const counting: GitRunner = (args, cwd) => {
  starts.push(args[0]);
  return runGit(args, cwd);
};

beforeEach(() => {
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-checkout-')));
  starts = [];
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  fs.mkdirSync(path.join(repo, 'apps'));
  fs.writeFileSync(path.join(repo, 'apps', 'a.yaml'), 'a: 1\n');
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

const commit = () => git(repo, ['add', '--all'], AT) + git(repo, ['commit', '--quiet', '-m', 'c'], AT);
const read = (base?: string) => readCheckout(counting, path.join(repo, 'apps'), PR, base, [path.join(repo, 'apps')]);

test('GIVEN a checkout on a branch WHEN read THEN its root, branch, commit and tree come from one git start besides the status', () => {
  commit();
  const c = read();
  expect(c).toMatchObject({
    root: repo,
    base: 'main',
    head: git(repo, ['rev-parse', 'HEAD']).trim(),
    tree: git(repo, ['rev-parse', 'HEAD^{tree}']).trim(),
    shallow: false,
  });
  expect(c.read('apps/a.yaml')).toBe('a: 1\n');
  expect(starts).toEqual(['rev-parse', 'status']);
});

test('GIVEN a shallow clone WHEN read THEN the checkout says so (its history stops at the graft)', () => {
  commit();
  const clone = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-checkout-shallow-')));
  try {
    git(clone, ['clone', '--quiet', '--depth', '1', `file://${repo}`, '.']);
    expect(readCheckout(counting, clone, PR, undefined, [clone])).toMatchObject({ root: clone, shallow: true });
  } finally {
    fs.rmSync(clone, { recursive: true, force: true });
  }
});

test('GIVEN a detached HEAD WHEN read THEN the base must be named; named, the checkout is read', () => {
  commit();
  git(repo, ['checkout', '--quiet', '--detach']);
  expect(() => read()).toThrow('HEAD is detached: name the base branch with --base or pr.base in rollgen.yaml');
  expect(read('main')).toMatchObject({ base: 'main', head: git(repo, ['rev-parse', 'HEAD']).trim() });
});

test('GIVEN a checkout on another branch WHEN read for the base THEN refused, naming both', () => {
  commit();
  expect(() => read('release')).toThrow('the checkout is on main but PRs target release');
});

test('GIVEN a branch with no commit yet WHEN read THEN its checks come first, step by step, then git names the missing HEAD', () => {
  expect(() => read('release')).toThrow('the checkout is on main but PRs target release');
  expect(() => read()).toThrow('uncommitted changes');
  fs.rmSync(path.join(repo, 'apps', 'a.yaml'));
  expect(() => read()).toThrow(/git rev-parse failed: .*HEAD/);
  fs.writeFileSync(path.join(repo, 'apps', 'b.yaml'), 'b: 1\n');
  commit();
  expect(read()).toMatchObject({ base: 'main', shallow: false });
});

test('GIVEN a directory outside any checkout WHEN read THEN refused as not a checkout', () => {
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-no-checkout-'));
  try {
    expect(() => readCheckout(counting, outside, PR, undefined, [outside])).toThrow(
      `${outside} is not in a git checkout; rollgen reads the base branch from one`,
    );
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
  }
});
