import * as fs from 'fs';
import * as path from 'path';
import { readSourceCommits } from '../../src/flow/source-commits';
import { runGit } from '../../src/io/git';
import { commitAll, git, makeRepo } from '../helpers/git-repo';

const T0 = new Date('2026-03-01T08:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let repo: string;
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
}

/** readSourceCommits of `dirs`, with the git calls it made. */
function read(dirs: readonly string[]) {
  const logs: string[][] = [];
  const counting = (args: readonly string[], cwd: string) => {
    if (args[0] === 'log') logs.push([...args]);
    return runGit(args, cwd);
  };
  const commits = readSourceCommits(
    counting,
    repo,
    dirs.map((d) => path.join(repo, d)),
  );
  return { commits: commits.map((c) => c?.sha), subjects: commits.map((c) => c?.subject), logs };
}

/** A branch `side` with one commit changing `sideFile`, then one commit on main changing `mainFile`. */
function diverge(sideFile: string, sideSubject: string, mainFile: string, mainSubject: string): void {
  git(repo, ['checkout', '--quiet', '-b', 'side'], at(1));
  write(sideFile, 'side\n');
  commitAll(repo, sideSubject, at(2));
  git(repo, ['checkout', '--quiet', 'main'], at(3));
  write(mainFile, 'main\n');
  commitAll(repo, mainSubject, at(4));
}

/** What a `git log -1` of each directory alone names: what the one shared log must agree with. */
const alone = (dirs: readonly string[]) =>
  dirs.map((d) => git(repo, ['log', '-1', '--format=%H', 'HEAD', '--', `:(literal)${d}`]).trim() || undefined);

test('one git log names the newest commit under every source, as `git log -1` of each would', () => {
  repo = makeRepo(['echo', 'web'], 'apps: []\n', T0);
  write('apps/we*ird [x]/deployment.yaml', 'a\n'); // glob characters are literal
  commitAll(repo, 'weird app', at(10));
  write('apps/echo/deployment.yaml', 'changed\n');
  commitAll(repo, 'echo \u001b[31mv2', at(20));
  write('other.txt', 'x\n');
  commitAll(repo, 'unrelated', at(30));
  const dirs = ['apps/echo', 'apps/web', 'apps/we*ird [x]', 'apps/w', 'apps/echo'];
  const r = read(dirs);
  expect(r.commits).toEqual(alone(dirs));
  expect(r.commits[3]).toBeUndefined(); // apps/w matches no file: not a prefix of apps/web
  expect(r.commits[0]).toBe(r.commits[4]); // two apps of one source
  expect(r.subjects[0]).toBe('echo \\u001b[31mv2');
  expect(r.logs).toHaveLength(1);
});

test("a merged branch names the PR's own commit, not the merge, also when the base moved meanwhile", () => {
  repo = makeRepo(['echo', 'web'], 'apps: []\n', T0);
  diverge('apps/echo/deployment.yaml', 'bump echo', 'apps/web/deployment.yaml', 'bump web');
  git(repo, ['merge', '--quiet', '--no-ff', '-m', 'Merge side', 'side'], at(5));
  const dirs = ['apps/echo', 'apps/web'];
  const r = read(dirs);
  expect(r.subjects).toEqual(['bump echo', 'bump web']);
  expect(r.commits).toEqual(alone(dirs));
});

test("a merge that resolved a conflict under the source is that source's newest commit, as `git log -1` shows it", () => {
  repo = makeRepo(['echo'], 'apps: []\n', T0);
  diverge('apps/echo/deployment.yaml', 'side change', 'apps/echo/deployment.yaml', 'main change');
  try {
    git(repo, ['merge', '--quiet', '-m', 'Merge side', 'side'], at(5));
  } catch {
    // the expected conflict: resolved below with content of neither side
  }
  write('apps/echo/deployment.yaml', 'resolved\n');
  commitAll(repo, 'Merge side, resolved', at(6));
  const r = read(['apps/echo']);
  expect(r.subjects).toEqual(['Merge side, resolved']);
  expect(r.commits).toEqual(alone(['apps/echo']));
});

test('a source last changed deep in history is found in a few windows, not one call per commit', () => {
  repo = makeRepo(['echo', 'web'], 'apps: []\n', T0);
  write('apps/echo/deployment.yaml', 'old\n');
  commitAll(repo, 'old echo', at(1));
  for (let i = 0; i < 70; i++) {
    write('apps/web/deployment.yaml', `v${i}\n`);
    commitAll(repo, `web ${i}`, at(2 + i));
  }
  const dirs = ['apps/echo', 'apps/web', 'apps/none'];
  const r = read(dirs);
  expect(r.subjects.slice(0, 2)).toEqual(['old echo', 'web 69']);
  expect(r.commits).toEqual(alone(dirs));
  // 72 commits touch these paths: windows of 64 then 256 commits; the second, short, ends the history
  // (the never-committed source reads it to the end once).
  expect(r.logs.map((args) => args.find((a) => a.startsWith('--skip=')))).toEqual(['--skip=0', '--skip=64']);
});

test('no sources, no git log', () => {
  repo = makeRepo([], 'apps: []\n', T0);
  expect(read([]).logs).toEqual([]);
});
