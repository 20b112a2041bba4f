/**
 * `rollgen pr` writes step branches with git: commits built in the checkout, all pushed in one
 * atomic push with the token in an HTTP header (never in argv, the URL or the output), then one
 * REST request per PR and one for its labels. Against the fake GitHub, whose git remote is a real
 * bare repository behind git's http-backend and GitHub's basic authentication.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bumpImage, git, makeRepo } from '../helpers/git-repo';
import { ProcessResult, runProcess } from '../helpers/run-process';
import { FakeGitHub } from './fake-github-server';
import { seedFromCheckout } from './helpers';

const BIN = join(__dirname, '..', '..', 'bin', 'rollgen');
// Each test starts rollgen two or three times against a git remote; the shared test machine is slow.
jest.setTimeout(180_000);
const AT = new Date('2026-03-01T10:00:00Z');
const APPS = Array.from({ length: 20 }, (_, i) => `app-${String(i + 1).padStart(2, '0')}`);
const CONFIG = 'apps:\n  - source: apps/*\n    output: deploy/{name}\n';

let fake: FakeGitHub;
let repo: string;
let wrapper: string;

/** A `git` first on PATH that logs every argv of every git rollgen starts, then runs the real one. */
function gitWrapper(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rollgen-git-argv-'));
  const real = process.env.ROLLGEN_REAL_GIT ?? '/usr/bin/git';
  writeFileSync(join(dir, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${dir}/argv.log"\nexec ${real} "$@"\n`);
  chmodSync(join(dir, 'git'), 0o755);
  writeFileSync(join(dir, 'argv.log'), '');
  return dir;
}

async function start(apps: readonly string[]): Promise<void> {
  fake = await FakeGitHub.start({ git: true });
  repo = makeRepo(apps, CONFIG, AT);
  seedFromCheckout(fake, repo);
  wrapper = gitWrapper();
}

afterEach(async () => {
  await fake.close();
  rmSync(repo, { recursive: true, force: true });
  rmSync(wrapper, { recursive: true, force: true });
  expect(fake.violations).toEqual([]);
});

function pr(): Promise<ProcessResult> {
  const env = {
    ...process.env,
    PATH: `${wrapper}:${process.env.PATH}`,
    GITHUB_TOKEN: fake.token,
    GITHUB_REPOSITORY: fake.repository,
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_SERVER_URL: fake.serverUrl,
    // Writes stay paced one at a time, 5 ms apart instead of a second (the test seam scales the unit).
    ROLLGEN_TEST_RETRY_UNIT_MS: '5',
  };
  return runProcess(process.execPath, [BIN, 'pr'], { cwd: repo, env });
}

const secretForms = () => [fake.token, Buffer.from(`x-access-token:${fake.token}`).toString('base64')];

test('GIVEN 20 apps to deploy WHEN rollgen pr runs THEN one git push and 2 requests a PR, the token in no argv nor output; a rerun costs 1 request and writes nothing', async () => {
  await start(APPS);
  const run = await pr();
  expect(run).toMatchObject({ code: 0, stderr: '' });
  const log = fake.log();
  expect(log.filter((l) => l === 'POST /pulls')).toHaveLength(20);
  expect(log.filter((l) => l === 'POST /issues/{issue_number}/labels')).toHaveLength(20);
  expect(log.length).toBeLessThanOrEqual(2 * 20 + 1);
  expect(log.some((l) => l.includes('/git/'))).toBe(false);
  expect(fake.git!.pushes).toBe(1);
  expect(fake.git!.requests.every((r) => r.authorized)).toBe(true);
  // Each PR's head is the pushed commit: the base plus one commit by rollgen, dated as the base.
  const heads = fake.git!.heads();
  for (const p of fake.state.pulls.values()) {
    expect(fake.state.headOf(p)).toBe(heads.get(p.head));
    const [author, parent] = git(repo, ['show', '-s', '--format=%an <%ae> %aI%n%P', heads.get(p.head)!]).split('\n');
    expect(author).toBe(`rollgen <rollgen@users.noreply.github.com> ${AT.toISOString().replace('.000Z', '+00:00')}`);
    expect(parent).toBe(git(repo, ['rev-parse', 'HEAD']).trim());
    expect([...fake.state.filesAt(p.head).keys()].some((f) => f.startsWith('deploy/'))).toBe(true);
  }
  // The checkout is untouched: no branch, no staged file, nothing in its work tree.
  expect(git(repo, ['status', '--porcelain']).trim()).toBe('');
  expect(git(repo, ['branch', '--list']).trim()).toBe('* main');
  const argv = readFileSync(join(wrapper, 'argv.log'), 'utf8');
  expect(argv).toMatch(/^push --atomic --porcelain http:\/\/127\.0\.0\.1:\d+\/octo\/demo\.git --force-with-lease=/m);
  for (const secret of secretForms()) {
    expect(argv).not.toContain(secret);
    expect(run.stdout).not.toContain(secret);
  }

  fake.resetLog();
  const again = await pr();
  expect(again).toMatchObject({ code: 0, stderr: '' });
  expect(fake.log()).toEqual(['GET /pulls']);
  expect(fake.git!.pushes).toBe(1);
});

test('GIVEN pushes are refused WHEN rollgen pr runs THEN it says so once and writes the branches through the REST API', async () => {
  await start(APPS.slice(0, 3));
  fake.git!.refusePush = true;
  const run = await pr();
  expect(run.code).toBe(0);
  const said = run.stderr.split('\n').filter(Boolean);
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(
    /^rollgen: git push to http:\/\/127\.0\.0\.1:\d+\/octo\/demo\.git was refused \(.*403.*\); step branches go through GitHub's REST API/,
  );
  expect(fake.git!.requests.filter((r) => r.service === 'git-receive-pack')).toHaveLength(1);
  expect(fake.log().filter((l) => l === 'POST /git/commits')).toHaveLength(3);
  expect(fake.log().filter((l) => l === 'POST /pulls')).toHaveLength(3);
  for (const secret of secretForms()) expect(run.stderr + run.stdout).not.toContain(secret);
});

test('GIVEN a person pushes to a step branch between the scan and the push WHEN the PR needs new content THEN the lease fails and the branch is left as it is', async () => {
  await start(['echoserver']);
  expect((await pr()).code).toBe(0);
  const [pull] = fake.state.pulls.values();
  const rollgenHead = fake.state.headOf(pull);
  bumpImage(repo, 'echoserver', '2.54', new Date('2026-03-01T11:00:00Z'));
  let theirs = '';
  fake.afterRequest = (method, route) => {
    if (method !== 'GET' || !route.endsWith('/pulls') || theirs) return;
    theirs = fake.git!.pushAs(pull.head, 'hotfix by Ada');
    fake.git!.importInto(fake.state);
  };
  const run = await pr();
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toContain(
    `echoserver: push branch ${pull.head}: it moved since rollgen read it (saw it at ${rollgenHead.slice(0, 12)}, it is at ${theirs.slice(0, 12)}): left as it is; the next run reads it again`,
  );
  expect(fake.git!.heads().get(pull.head)).toBe(theirs);
  expect(fake.log().filter((l) => l.startsWith('PATCH'))).toEqual([]);
});

test("GIVEN the checkout persisted another token's credentials WHEN rollgen pr runs THEN git pushes with the run's token (whose pushes start CI like its PRs), still not in argv", async () => {
  await start(APPS.slice(0, 2));
  const stale = Buffer.from('x-access-token:ghs_job-token-persisted-by-checkout').toString('base64');
  git(repo, ['config', `http.${fake.serverUrl}/.extraheader`, `AUTHORIZATION: basic ${stale}`]);
  const run = await pr();
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(fake.git!.pushes).toBe(1);
  expect(fake.git!.requests.every((r) => r.authorized)).toBe(true);
  expect(fake.log().some((l) => l.includes('/git/'))).toBe(false);
  const argv = readFileSync(join(wrapper, 'argv.log'), 'utf8');
  for (const secret of secretForms()) expect(argv).not.toContain(secret);
});

test("GIVEN the checkout persisted the run's own token WHEN rollgen pr runs THEN git pushes with those credentials", async () => {
  await start(APPS.slice(0, 2));
  const own = Buffer.from(`x-access-token:${fake.token}`).toString('base64');
  git(repo, ['config', `http.${fake.serverUrl}/.extraheader`, `AUTHORIZATION: basic ${own}`]);
  const run = await pr();
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(fake.git!.pushes).toBe(1);
  expect(fake.git!.requests.every((r) => r.authorized)).toBe(true);
});
