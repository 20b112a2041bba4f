/**
 * Two `rollgen pr` processes at once over one checkout and one (fake) GitHub, as two workflow runs
 * without a concurrency group would be: exactly one PR, one step branch, and both runs succeed. And
 * a GitHub that never answers ends the run with an error instead of hanging it.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo } from '../helpers/git-repo';
import { FakeGitHub } from './fake-github-server';
import { seedFromCheckout } from './helpers';

const BIN = join(__dirname, '..', '..', 'bin', 'rollgen');
let fake: FakeGitHub;
let repo: string;

beforeEach(async () => {
  fake = await FakeGitHub.start({ git: true });
  repo = makeRepo(
    ['echoserver'],
    'apps:\n  - source: apps/*\n    output: deploy/{name}\n',
    new Date('2026-03-01T10:00:00Z'),
  );
  seedFromCheckout(fake, repo);
});
afterEach(async () => {
  await fake.close();
  rmSync(repo, { recursive: true, force: true });
  expect(fake.violations).toEqual([]);
});

function pr(extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const env = {
    ...process.env,
    GITHUB_TOKEN: fake.token,
    GITHUB_REPOSITORY: fake.repository,
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_SERVER_URL: fake.serverUrl,
    ...extraEnv,
  };
  const child = spawn(process.execPath, [BIN, 'pr'], { cwd: repo, env });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

test('GIVEN two rollgen pr runs at once WHEN both propose the same step THEN one PR and both succeed', async () => {
  // Writes stay paced one at a time, 5 ms apart instead of a second (the test seam scales the unit).
  const runs = await Promise.all([pr({ ROLLGEN_TEST_RETRY_UNIT_MS: '5' }), pr({ ROLLGEN_TEST_RETRY_UNIT_MS: '5' })]);
  expect(runs).toEqual([
    { code: 0, stderr: '' },
    { code: 0, stderr: '' },
  ]);
  const pulls = [...fake.state.pulls.values()];
  expect(pulls.map((p) => [p.head, p.state])).toEqual([['rollgen/echoserver/adopt', 'open']]);
});

test('GIVEN GitHub never answers the PR scan WHEN rollgen pr runs THEN it ends (exit 1) naming the call, after the bounded retries', async () => {
  fake.inject({ method: 'GET', route: '/repos/{owner}/{repo}/pulls', status: 0, hang: true, times: 99 });
  // Every attempt hangs: the timeout and the back-off unit (1 ms per second) only set how long this takes.
  const r = await pr({ ROLLGEN_GITHUB_TIMEOUT: '0.2', ROLLGEN_TEST_RETRY_UNIT_MS: '1' });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    'list all pull requests in octo/demo: could not reach GitHub: GitHub did not answer within 0.2 s',
  );
  expect(fake.state.pulls.size).toBe(0);
});
