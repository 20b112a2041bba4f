/**
 * pr.maxRequests: a run takes apps whole, oldest pending first (by git history: when the app's state
 * landed, or its source appeared), until the next would not fit; the others wait for the next run,
 * which takes them first. And GitHub's secondary limit answered past the bounded wait defers the rest.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addApp, commitAll, makeRepo } from '../helpers/git-repo';
import { ProcessResult, runProcess } from '../helpers/run-process';
import { FakeGitHub } from './fake-github-server';
import { seedFromCheckout } from './helpers';

const BIN = join(__dirname, '..', '..', 'bin', 'rollgen');
jest.setTimeout(180_000);
const CONFIG = 'apps:\n  - source: apps/*\n    output: deploy/{name}\npr:\n  maxRequests: 10\n';

let fake: FakeGitHub;
let repo: string;

beforeEach(async () => {
  fake = await FakeGitHub.start({ git: true });
  // zeta is oldest: its source landed an hour before the five others.
  repo = makeRepo(['zeta'], CONFIG, new Date('2026-03-01T09:00:00Z'));
  for (const app of ['app-a', 'app-b', 'app-c', 'app-d', 'app-e']) addApp(repo, app);
  commitAll(repo, 'five more apps', new Date('2026-03-01T10:00:00Z'));
  seedFromCheckout(fake, repo);
});
afterEach(async () => {
  await fake.close();
  rmSync(repo, { recursive: true, force: true });
  expect(fake.violations).toEqual([]);
});

function pr(): Promise<ProcessResult> {
  const env = {
    ...process.env,
    GITHUB_TOKEN: fake.token,
    GITHUB_REPOSITORY: fake.repository,
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_SERVER_URL: fake.serverUrl,
    ROLLGEN_TEST_RETRY_UNIT_MS: '5',
  };
  return runProcess(process.execPath, [BIN, 'pr'], { cwd: repo, env });
}

const opened = () => [...fake.state.pulls.values()].map((p) => p.head.split('/')[1]);

test('GIVEN 6 new apps and pr.maxRequests 10 WHEN rollgen pr runs twice THEN the oldest and the first three fit, the other two wait and go first next run', async () => {
  const first = await pr();
  expect(first).toMatchObject({ code: 0, stderr: '' });
  expect(fake.requests.length).toBeLessThanOrEqual(10);
  expect(opened().sort()).toEqual(['app-a', 'app-b', 'app-c', 'zeta']);
  expect(first.stdout).toMatch(
    /^rollgen: 2 app\(s\) wait for the next run, which takes them first \(request budget: 9 of pr\.maxRequests 10 spent; GitHub: \d+ of 5000 left until 2026-01-01T01:00:00\.000Z\): app-d, app-e$/m,
  );
  // A half-made PR never: the deferred apps have no branch either.
  expect([...fake.git!.heads().keys()].filter((b) => /app-[de]/.test(b))).toEqual([]);

  fake.resetLog();
  const second = await pr();
  expect(second).toMatchObject({ code: 0, stderr: '' });
  expect(opened().slice(4).sort()).toEqual(['app-d', 'app-e']);
  expect(second.stdout).not.toContain('wait for the next run');
  expect(fake.log().filter((l) => l === 'POST /pulls')).toHaveLength(2);
});

test('GIVEN GitHub answers a PR creation with a secondary limit longer than rollgen waits WHEN rollgen pr runs THEN no further app starts and they wait for the next run', async () => {
  fake.inject({
    method: 'POST',
    route: '/repos/{owner}/{repo}/pulls',
    status: 403,
    headers: { 'retry-after': '3600' },
    body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
  });
  const run = await pr();
  expect(run.code).toBe(0);
  // One refused POST, no retry in a loop, no later app started.
  expect(fake.log().filter((l) => l === 'POST /pulls')).toHaveLength(1);
  expect(run.stderr).toMatch(
    /^zeta: open a PR from rollgen\/zeta\/adopt into main in octo\/demo: GitHub's secondary rate limit held/m,
  );
  expect(run.stdout).toMatch(
    /rollgen: 6 app\(s\) wait for the next run, which takes them first \(.*\): zeta, app-a, app-b, app-c, app-d, app-e$/m,
  );
  // The next run takes them: zeta's branch was pushed already and is adopted as it is.
  const next = await pr();
  expect(next).toMatchObject({ code: 0, stderr: '' });
  expect(opened().sort()).toEqual(['app-a', 'app-b', 'app-c', 'zeta']);
  expect(next.stdout).toMatch(/rollgen: 2 app\(s\) wait for the next run.*: app-d, app-e$/m);
});

test('GIVEN pr.maxRequests below 10 WHEN validated THEN refused at its line', () => {
  writeFileSync(join(repo, 'rollgen.yaml'), CONFIG.replace('maxRequests: 10', 'maxRequests: 5'));
  const r = spawnSync(process.execPath, [BIN, 'validate'], { cwd: repo, encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('rollgen.yaml:5:');
  expect(r.stderr).toMatch(/maxRequests/);
});
