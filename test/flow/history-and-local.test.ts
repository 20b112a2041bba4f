import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readAppHistories } from '../../src/flow/history';
import { runGit } from '../../src/io/git';
import { runCli } from '../helpers/cli';
import { commitAll, git, makeRepo } from '../helpers/git-repo';

const T0 = new Date('2026-02-01T08:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let repo: string;
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

const histories = (paths: { source: string; output: string }[]) =>
  readAppHistories(
    runGit,
    repo,
    paths.map((p) => ({ source: path.join(repo, p.source), output: path.join(repo, p.output) })),
  );

test("landedAt: when the status file reached the base, the merge commit's date, not the older PR commit's", () => {
  repo = makeRepo([], 'apps: []\n', T0);
  const status = path.join(repo, 'deploy/echo/rollgen-status.yaml');
  const echo = { source: 'apps/echo', output: 'deploy/echo' };
  expect(histories([echo])).toEqual([{}]);
  git(repo, ['checkout', '--quiet', '-b', 'rollgen/echo/step-1'], at(1));
  fs.mkdirSync(path.dirname(status), { recursive: true });
  fs.writeFileSync(status, 'step: 1\n');
  commitAll(repo, 'step 1', at(1)); // the PR's commit, made when the PR opened
  git(repo, ['checkout', '--quiet', 'main'], at(2));
  fs.writeFileSync(path.join(repo, 'other.txt'), 'x');
  commitAll(repo, 'unrelated', at(5));
  git(repo, ['merge', '--quiet', '--no-ff', '-m', 'Merge step 1', 'rollgen/echo/step-1'], at(30)); // merged 29 minutes later
  const merge = git(repo, ['rev-parse', 'HEAD']).trim();
  fs.writeFileSync(path.join(repo, 'other.txt'), 'y');
  commitAll(repo, 'later unrelated', at(45));
  // The landing commit is the merge too: the first-parent commit that changed the output.
  expect(histories([echo])).toEqual([{ landedAt: at(30), pullsSince: at(30), landingSha: merge }]);
});

test('one git log dates every app: the last landing of each status file, or the first appearance of a source that never landed', () => {
  repo = makeRepo(['echo'], 'apps: []\n', T0);
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  };
  write('apps/we*ird [x]/deployment.yaml', 'a\n'); // glob characters are literal
  commitAll(repo, 'weird app', at(10));
  write('deploy/echo/rollgen-status.yaml', 'step: 1\n');
  write('apps/echo/deployment.yaml', 'changed\n');
  commitAll(repo, 'echo step 1', at(20));
  write('deploy/echo/rollgen-status.yaml', 'step: 2\n');
  write('apps/we*ird [x]/deployment.yaml', 'b\n');
  commitAll(repo, 'echo step 2', at(40));
  const step2 = git(repo, ['rev-parse', 'HEAD']).trim();
  write('deploy/w/deployment.yaml', 'by hand\n'); // an output changed without its status: still what the base carries
  commitAll(repo, 'hand edit', at(50));
  const handEdit = git(repo, ['rev-parse', 'HEAD']).trim();
  const calls: string[][] = [];
  const counting = (args: readonly string[], cwd: string) => (calls.push([...args]), runGit(args, cwd));
  const dates = readAppHistories(counting, repo, [
    { source: path.join(repo, 'apps/echo'), output: path.join(repo, 'deploy/echo') },
    { source: path.join(repo, 'apps/we*ird [x]'), output: path.join(repo, 'deploy/weird') },
    { source: path.join(repo, 'apps/w'), output: path.join(repo, 'deploy/w') },
  ]);
  expect(dates).toEqual([
    { landedAt: at(40), pullsSince: at(40), landingSha: step2 },
    { pullsSince: at(10) },
    { landingSha: handEdit },
  ]);
  expect(calls.filter((c) => c[0] === 'log')).toHaveLength(1);
});

test('a shallow clone dates no scan bound: its oldest commit is not when a source appeared', () => {
  const origin = makeRepo(['echo'], 'apps: []\n', T0);
  fs.writeFileSync(path.join(origin, 'other.txt'), 'x');
  commitAll(origin, 'later', at(30));
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-shallow-'));
  git(repo, ['clone', '--quiet', '--depth', '1', `file://${origin}`, '.']);
  fs.rmSync(origin, { recursive: true, force: true });
  expect(histories([{ source: 'apps/echo', output: 'deploy/echo' }])).toEqual([{}]);
});

describe('local git mode', () => {
  const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';

  test('advance --commit makes one commit per app with only the output, and a message naming the step', async () => {
    repo = makeRepo(['echo'], CONFIG, T0);
    fs.writeFileSync(path.join(repo, 'staged.txt'), 'mine\n');
    git(repo, ['add', 'staged.txt']);
    const r = await runCli(['advance', 'echo', '--commit'], repo);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^committed [0-9a-f]+ rollgen\(echo\): adopt: track label on the pods$/m);
    expect(git(repo, ['log', '-1', '--format=%B'])).toBe(
      'rollgen(echo): adopt: track label on the pods\n\necho/echo-rollout: first deploy -> adopting (track label on pods, selectors unchanged)\n\n',
    );
    expect(
      git(repo, ['show', '--name-only', '--format=', 'HEAD'])
        .trim()
        .split('\n')
        .every((f) => f.startsWith('deploy/echo/')),
    ).toBe(true);
    expect(git(repo, ['diff', '--cached', '--name-only']).trim()).toBe('staged.txt');
    await runCli(['advance', 'echo', '--commit'], repo);
    const bumped = fs
      .readFileSync(path.join(repo, 'apps/echo/deployment.yaml'), 'utf8')
      .replace(/agnhost:\S+/, 'agnhost:2.54');
    fs.writeFileSync(path.join(repo, 'apps/echo/deployment.yaml'), bumped);
    commitAll(repo, 'new image', at(1));
    await runCli(['advance', 'echo', '--commit'], repo);
    expect(git(repo, ['log', '-1', '--format=%s']).trim()).toMatch(/^rollgen\(echo\): start \w+: step 1 of 4$/);
    const abort = await runCli(['abort', 'echo', '--commit'], repo);
    expect(abort.code).toBe(0);
    expect(git(repo, ['log', '-1', '--format=%s']).trim()).toMatch(
      /^rollgen\(echo\): abort \w+: all traffic to stable, canary removed$/,
    );
    expect(git(repo, ['show', '--name-status', '--format=', 'HEAD'])).toMatch(
      /^D\tdeploy\/echo\/deployment-echo-canary.yaml$/m,
    );
    expect(git(repo, ['status', '--porcelain', '--', 'deploy'])).toBe('');
  });

  test('nothing to do makes no commit; outside a git work tree nothing is written', async () => {
    repo = makeRepo(['echo'], CONFIG, T0);
    await runCli(['advance', 'echo', '--commit'], repo);
    await runCli(['advance', 'echo', '--commit'], repo);
    const head = git(repo, ['rev-parse', 'HEAD']);
    const idle = await runCli(['advance', 'echo', '--commit'], repo);
    expect(idle.stdout).toMatch(/nothing to advance/);
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe(head);

    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-nogit-'));
    try {
      fs.cpSync(path.join(repo, 'apps'), path.join(plain, 'apps'), { recursive: true });
      fs.writeFileSync(path.join(plain, 'rollgen.yaml'), CONFIG);
      const r = await runCli(['advance', 'echo', '--commit'], plain, '', {
        git: (args, cwd) =>
          args[0] === 'rev-parse'
            ? (() => {
                throw new Error('not a git repository');
              })()
            : runGit(args, cwd),
      });
      expect(r).toMatchObject({ code: 1, stderr: expect.stringContaining('is not inside a git work tree') });
      expect(fs.existsSync(path.join(plain, 'deploy'))).toBe(false);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });

  test('flags that do not go together are input errors', async () => {
    repo = makeRepo(['echo'], CONFIG, T0);
    expect((await runCli(['abort', 'echo', '--pr', '--commit'], repo)).code).toBe(2);
    expect((await runCli(['abort', 'echo', '--merge'], repo)).stderr).toMatch(
      /--merge, --dry-run and --offline go with --pr/,
    );
  });
});
