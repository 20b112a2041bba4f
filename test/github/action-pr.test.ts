/**
 * The committed Action bundle runs `rollgen pr` end to end: node in a child process with only the
 * variables GitHub sets, the workspace a real git checkout, GITHUB_API_URL the fake GitHub (whose
 * payloads are checked against GitHub's OpenAPI description). Counts the requests it takes.
 */
import { runProcess } from '../helpers/run-process';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRepo } from '../helpers/git-repo';
import { FakeGitHub } from './fake-github-server';
import { seedFromCheckout } from './helpers';

const BUNDLE = join(__dirname, '..', '..', 'action', 'dist', 'index.js');
const AT = new Date('2026-03-01T10:00:00Z');

let fake: FakeGitHub;
let repo: string;
let out: string;

beforeEach(async () => {
  fake = await FakeGitHub.start({ git: true });
  repo = makeRepo(['echoserver'], 'apps:\n  - source: apps/*\n    output: deploy/{name}\n', AT);
  out = join(tmpdir(), `rollgen-action-out-${process.pid}-${Date.now()}`);
  seedFromCheckout(fake, repo);
});
afterEach(async () => {
  await fake.close();
  rmSync(repo, { recursive: true, force: true });
  rmSync(out + '.output', { force: true });
  rmSync(out + '.summary', { force: true });
  expect(fake.violations).toEqual([]);
});

/** Runs the bundle like the runner. Async: the fake server lives in this process and must keep answering. */
async function runAction(inputs: Record<string, string>) {
  writeFileSync(out + '.output', '');
  writeFileSync(out + '.summary', '');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: fake.repository,
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_SERVER_URL: fake.serverUrl,
    GITHUB_WORKSPACE: repo,
    GITHUB_OUTPUT: out + '.output',
    GITHUB_STEP_SUMMARY: out + '.summary',
    INPUT_TOKEN: fake.token,
    INPUT_CONFIG: 'rollgen.yaml',
    INPUT_APP: '',
    'INPUT_DRY-RUN': 'false',
    // Writes paced 5 ms apart instead of a second: the client's test seam (src/flow/edges.ts).
    ROLLGEN_TEST_RETRY_UNIT_MS: '5',
    ...inputs,
  };
  const { code, stdout, stderr } = await runProcess(process.execPath, [BUNDLE], { cwd: tmpdir(), env });
  return {
    code,
    stdout,
    stderr,
    output: readFileSync(env.GITHUB_OUTPUT, 'utf8'),
    summary: readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8'),
  };
}

test('GIVEN a new app WHEN the Action runs pr THEN it pushes its branch by git and opens the PR in 3 requests, reports it, and a rerun writes nothing', async () => {
  const first = await runAction({ INPUT_COMMAND: 'pr' });
  expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
  const pulls = [...fake.state.pulls.values()];
  expect(pulls.map((p) => [p.head, p.state])).toEqual([['rollgen/echoserver/adopt', 'open']]);
  expect(first.output).toMatch(/^opened=\[1\]$/m);
  // The step column comes from the flow itself (the PR's branch), not from the test.
  expect(first.summary).toMatch(/^\| echoserver \| \[#1\]\([^)]+\) \| opened \| adopt \|$/m);
  const opening = fake.requests.length;
  // The scan, the PR and its labels; the branch went by one git push with the token input.
  expect(fake.log()).toEqual(['GET /pulls', 'POST /pulls', 'POST /issues/{issue_number}/labels']);
  expect(fake.git!.pushes).toBe(1);
  expect(fake.git!.requests.every((r) => r.authorized)).toBe(true);
  // The PR's branch is the base plus one commit holding the rendered output.
  const files = fake.state.filesAt('rollgen/echoserver/adopt');
  expect([...files.keys()].filter((p) => p.startsWith('deploy/echoserver/')).sort()).toContain(
    'deploy/echoserver/kustomization.yaml',
  );

  fake.requests.length = 0;
  const again = await runAction({ INPUT_COMMAND: 'pr' });
  expect(again.code).toBe(0);
  expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  expect(again.output).toMatch(/^opened=\[\]$/m);
  expect(first.stdout + first.stderr + first.output + first.summary + again.stdout).not.toContain(fake.token);
  process.stdout.write(
    `action pr: opening the first PR took ${opening} requests; an unchanged rerun ${fake.requests.length} (all reads)\n`,
  );
});

test('GIVEN dry-run WHEN the Action runs pr THEN it prints the intended PR and makes no write call', async () => {
  const r = await runAction({ INPUT_COMMAND: 'pr', 'INPUT_DRY-RUN': 'true' });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('would open a PR from rollgen/echoserver/adopt');
  expect(fake.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  expect(fake.state.pulls.size).toBe(0);
});

test('the checkout really is git (guards the seeding above)', () => {
  expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' })).toBe('');
});

test('GIVEN an error text holding a workflow command WHEN the Action prints it THEN the runner sees it only while commands are stopped, and the one ::error after', async () => {
  fake.inject({
    method: 'GET',
    route: '/repos/{owner}/{repo}/pulls',
    status: 403,
    body: { message: 'denied\n::warning::injected\n::add-mask::x' },
  });
  const r = await runAction({ INPUT_COMMAND: 'pr' });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('\n::warning::injected');
  // stdout and stderr are pipes, written synchronously in this order: stop, the CLI's output, resume, annotation.
  const lines = r.stdout.split('\n');
  const stop = /^::stop-commands::([0-9a-f]{32})$/.exec(lines[0]);
  expect(stop).not.toBeNull();
  const resumeAt = lines.indexOf(`::${stop![1]}::`);
  expect(resumeAt).toBeGreaterThan(0);
  const commandsAfter = lines.slice(resumeAt + 1).filter((l) => l.startsWith('::'));
  expect(commandsAfter).toHaveLength(1);
  expect(commandsAfter[0]).toMatch(/^::error title=rollgen pr::.*denied%0A::warning::injected%0A::add-mask::x/);
});
