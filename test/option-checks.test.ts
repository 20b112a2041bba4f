import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { commitAll, git } from './helpers/git-repo';

/**
 * Flags a command would not use are refused, the same way on every command, rather than dropped
 * (QA probe 3, findings 6 and 10): src/option-checks.ts.
 */
const EXAMPLE = path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver');
let repo = '';

beforeEach(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-options-'));
  fs.cpSync(EXAMPLE, path.join(repo, 'apps', 'echo'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/echo\n    output: deploy/echo\n');
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

const output = () => path.join(repo, 'deploy', 'echo');

describe('-f takes - (stdin) only: a path is refused, not replaced by the source of rollgen.yaml', () => {
  test('advance -f FILE writes nothing', async () => {
    const r = await runCli(['advance', 'echo', '-f', 'all.yaml'], repo);
    expect([r.code, r.stderr]).toEqual([
      2,
      "-f all.yaml: -f reads the source manifests from stdin only (-f -); pipe the file in (rollgen advance -f - < all.yaml) or give the app's directory as SOURCE\n",
    ]);
    expect(fs.existsSync(output())).toBe(false);
  });

  test.each([['render', 'echo', '--step', '2'], ['plan'], ['validate']])('%s -f FILE', async (...args) => {
    const r = await runCli([...args, '-f', '/nonexistent'], repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-f /nonexistent: -f reads the source manifests from stdin only (-f -)');
  });

  test('pr has no -f: the GitHub flow works on the apps of rollgen.yaml', async () => {
    const r = await runCli(['pr', '--dry-run', '--offline', '-f', '/nonexistent'], repo);
    expect([r.code, r.stderr]).toEqual([2, "error: unknown option '-f'\n"]);
  });
});

describe('GitHub flags without --pr are refused by abort, promote and retry as by status', () => {
  beforeEach(async () => {
    await runCli(['advance', 'echo'], repo);
    await runCli(['advance', 'echo'], repo);
  });

  test.each([
    [['abort', 'echo', '--token', 'x'], 'abort: --token goes with --pr'],
    [['abort', 'echo', '--base', 'foo'], 'abort: --base goes with --pr'],
    [['promote', 'echo', '--repo', 'a/b', '--api-url', 'http://x'], 'promote: --repo and --api-url go with --pr'],
    [['retry', 'echo', '--token', 'x'], 'retry: --token goes with --pr'],
    [['status', 'echo', '--token', 'x'], 'status: --token goes with --pr'],
  ])('%j', async (args, said) => {
    const before = fs.readFileSync(path.join(output(), 'rollgen-status.yaml'), 'utf8');
    const r = await runCli(args, repo);
    expect([r.code, r.stderr]).toEqual([
      2,
      `${said} (reading or writing GitHub); add --pr, or drop ${/ and /.test(said) ? 'them' : 'it'}\n`,
    ]);
    expect(fs.readFileSync(path.join(output(), 'rollgen-status.yaml'), 'utf8')).toBe(before);
  });
});

describe('connection values are checked offline too', () => {
  test.each([
    [['--repo', 'bad repo'], '--repo takes the repository as owner/name (got "bad repo")'],
    [['--api-url', 'notaurl'], '--api-url must be an http(s) URL, e.g. https://HOST/api/v3 (got "notaurl")'],
    [['--token', 'x'], 'pr --offline reads nothing from GitHub, so --token is not used; drop it'],
  ])('pr --dry-run --offline %j', async (flags, said) => {
    const r = await runCli(['pr', '--dry-run', '--offline', ...flags], repo, '', { env: {} });
    expect([r.code, r.stderr]).toEqual([2, `${said}\n`]);
  });
});

test.each([['validate'], ['status'], ['plan']])('%s has no --removal: it would change nothing', async (command) => {
  const r = await runCli([command, '--removal', 'two-commits'], repo);
  expect([r.code, r.stderr]).toEqual([2, "error: unknown option '--removal'\n"]);
});

describe('--shard K/N (pr and status): checked where given; a part of all the apps, never beside app names', () => {
  test.each(['0/4', '5/4', '4', '1/0', 'a/b', '1/4/2'])('pr --shard %s is refused, nothing read', async (value) => {
    const r = await runCli(['pr', '--dry-run', '--offline', '--shard', value], repo);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `--shard takes K/N, the K-th of N shards with 1 <= K <= N, e.g. --shard 2/4 (got "${value}")\n`,
    ]);
  });

  test('status --shard 9/4 is refused the same way', async () => {
    const r = await runCli(['status', '--shard', '9/4'], repo);
    expect([r.code, r.stderr]).toEqual([
      2,
      '--shard takes K/N, the K-th of N shards with 1 <= K <= N, e.g. --shard 2/4 (got "9/4")\n',
    ]);
  });

  test('app names beside --shard are refused: a shard is a part of every app', async () => {
    const r = await runCli(['pr', 'echo', '--dry-run', '--offline', '--shard', '1/2'], repo);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(
      '--shard 1/2 takes a part of all the apps of rollgen.yaml; name apps (or --target) or give --shard, not both\n',
    );
  });

  test('pr --dry-run --offline: shards 1/2 and 2/2 together preview the one app once; the empty shard says so and previews nothing', async () => {
    git(repo, ['init', '--quiet', '--initial-branch=main']);
    commitAll(repo, 'apps', new Date('2026-03-01T10:00:00Z'));
    const parts = [
      await runCli(['pr', '--dry-run', '--offline', '--shard', '1/2'], repo),
      await runCli(['pr', '--dry-run', '--offline', '--shard', '2/2'], repo),
    ];
    for (const r of parts) expect(r.code).toBe(0);
    const whole = await runCli(['pr', '--dry-run', '--offline'], repo);
    expect(parts.map((r) => r.stdout).join('')).toBe(whole.stdout);
    expect(parts.filter((r) => r.stdout === '')).toHaveLength(1);
    // Each says which part it took: one app in one shard, none in the other.
    const said = parts.map((r, k) => new RegExp(`^rollgen: shard ${k + 1}/2: ([01]) of 1 apps`).exec(r.stderr)?.[1]);
    expect(said.sort()).toEqual(['0', '1']);
  });
});
