/**
 * `rollgen pr --shard K/N` over an Actions matrix: N processes at once, each on its part of the
 * apps, against the test GitHub (a real bare repository behind git's http-backend), make exactly
 * the PRs one run makes on an identical repository: same branches, titles, bodies and committed
 * files, ALB orders included (the ALB apps share a listener, so one shard allocates them all), and
 * no branch is written by two shards.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEADER_THEN_WEIGHT, makeAlbRepo } from '../helpers/alb-repo';
import { addApp, bumpImage, commitAll, git } from '../helpers/git-repo';
import { ProcessResult, runProcess } from '../helpers/run-process';
import { FakeGitHub } from './fake-github-server';
import { seedFromCheckout } from './helpers';

const BIN = join(__dirname, '..', '..', 'bin', 'rollgen');
// Five rollgen processes against two git remotes on a shared, slow test machine.
jest.setTimeout(300_000);
const AT = new Date('2026-03-01T10:00:00Z');
const ALB = ['alb-a', 'alb-b', 'alb-c', 'alb-d', 'alb-e'];
const NGINX = ['web', 'api', 'shop', 'cart', 'auth', 'mail', 'feed', 'news', 'pay', 'docs'];
const ORDER = 'alb.ingress.kubernetes.io/order';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

/**
 * ALB apps on one listener, alb-a and alb-b already at step 1 (their canaries hold orders), and
 * nginx apps on their own hosts; then a new image for every app but alb-a and alb-b.
 */
function makeRepo(): string {
  const repo = makeAlbRepo(ALB.map((name, i) => ({ name, steps: HEADER_THEN_WEIGHT, order: 20 + 10 * i })));
  for (const name of NGINX) addApp(repo, name);
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  commitAll(repo, 'initial', AT);
  cli(repo, ['advance', '--commit']);
  cli(repo, ['advance', '--commit', 'alb-a', 'alb-b']);
  for (const app of [...ALB.slice(2), ...NGINX]) bumpImage(repo, app, '2.54', AT);
  return repo;
}

function cli(repo: string, args: string[]): void {
  execFileSync(process.execPath, [BIN, ...args], { cwd: repo, env: { ...process.env, ...gitDates() }, stdio: 'pipe' });
}

const gitDates = () => ({
  GIT_AUTHOR_DATE: AT.toISOString(),
  GIT_COMMITTER_DATE: AT.toISOString(),
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
});

/** A copy of `repo` served by its own test GitHub, whose bare repository logs every ref update. */
async function served(repo: string): Promise<{ fake: FakeGitHub; checkout: string }> {
  const checkout = mkdtempSync(join(tmpdir(), 'rollgen-shards-'));
  cpSync(repo, checkout, { recursive: true });
  const fake = await FakeGitHub.start({ git: true });
  cleanup.push(() => rmSync(checkout, { recursive: true, force: true }));
  cleanup.push(async () => {
    await fake.close();
    expect(fake.violations).toEqual([]);
  });
  seedFromCheckout(fake, checkout);
  execFileSync('git', ['config', 'core.logAllRefUpdates', 'always'], { cwd: fake.git!.dir });
  return { fake, checkout };
}

function pr(fake: FakeGitHub, cwd: string, extra: string[] = []): Promise<ProcessResult> {
  const env = {
    ...process.env,
    GITHUB_TOKEN: fake.token,
    GITHUB_REPOSITORY: fake.repository,
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_SERVER_URL: fake.serverUrl,
    ROLLGEN_TEST_RETRY_UNIT_MS: '5',
  };
  return runProcess(process.execPath, [BIN, 'pr', ...extra], { cwd, env });
}

/** Per PR branch: its title, body and every file of its head commit, with the fake's own address blanked. */
function outcome(fake: FakeGitHub): Map<string, { title: string; body: string; files: Record<string, string> }> {
  const local = (text: string) => text.split(fake.serverUrl).join('SERVER').split(fake.apiUrl).join('API');
  const pulls = [...fake.state.pulls.values()].sort((a, b) => (a.head < b.head ? -1 : 1));
  return new Map(
    pulls.map((p) => [
      p.head,
      {
        title: p.title,
        body: local(p.body ?? ''),
        files: Object.fromEntries([...fake.state.filesAt(p.head)].map(([f, text]) => [f, local(text)])),
      },
    ]),
  );
}

/** How many times each branch of the bare repository was written (its reflog), by branch. */
function writesPerBranch(fake: FakeGitHub): Map<string, number> {
  const dir = fake.git!.dir;
  const branches = [...fake.git!.heads().keys()].filter((b) => b !== 'main');
  return new Map(
    branches.map((b) => [
      b,
      execFileSync('git', ['reflog', 'show', '--format=%H', `refs/heads/${b}`], { cwd: dir, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean).length,
    ]),
  );
}

test('GIVEN 15 apps, 5 of them on one ALB listener WHEN 4 shards run rollgen pr at once THEN they open the PRs one run opens, ALB orders included, each branch written once', async () => {
  const repo = makeRepo();
  cleanup.push(() => rmSync(repo, { recursive: true, force: true }));
  const one = await served(repo);
  const sharded = await served(repo);

  const single = await pr(one.fake, one.checkout);
  expect(single).toMatchObject({ code: 0, stderr: '' });
  const runs = await Promise.all([1, 2, 3, 4].map((k) => pr(sharded.fake, sharded.checkout, ['--shard', `${k}/4`])));
  for (const [i, run] of runs.entries()) {
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^rollgen: shard ${i + 1}/4: \\d+ of 15 apps`));
  }

  const expected = outcome(one.fake);
  // alb-a and alb-b wait at step 1 (their gate); the 13 new images each get a step PR.
  const bumped = [...ALB.slice(2), ...NGINX].sort();
  expect([...expected.keys()].map((b) => b.split('/')[1]).sort()).toEqual(bumped);
  expect(outcome(sharded.fake)).toEqual(expected);
  // The ALB step PRs carry orders allocated around the canaries alb-a and alb-b hold.
  const albFiles = [...expected].filter(([branch]) => /alb-[cde]/.test(branch)).map(([, p]) => p.files);
  expect(albFiles).toHaveLength(3);
  for (const files of albFiles) expect(Object.values(files).join('\n')).toContain(ORDER);

  // Every branch written once, by git push (no REST writes), each shard pushing at most once.
  const writes = writesPerBranch(sharded.fake);
  expect(writes.size).toBe(13);
  for (const [branch, count] of writes) expect([branch, count]).toEqual([branch, 1]);
  expect(sharded.fake.log().some((l) => l.includes('/git/'))).toBe(false);
  expect(sharded.fake.git!.pushes).toBeLessThanOrEqual(4);
  // The work is split: more than one shard wrote PRs, and the ALB apps all came from one of them.
  const opened = runs.map((r) => r.stdout);
  expect(opened.filter((out) => /: opened #\d+/.test(out)).length).toBeGreaterThan(1);
  expect(opened.filter((out) => out.includes('alb-')).length).toBe(1);
});
