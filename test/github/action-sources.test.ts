/**
 * The Action run from its sources (action/src/run-action.ts, in this process) as the runner runs it:
 * every input action.yml declares is set (the runner fills in the defaults), the workspace a real
 * git checkout, GITHUB_API_URL the fake GitHub. The committed bundle is run in action-pr.test.ts.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runAction } from '../../action/src/run-action';
import { makeRepo } from '../helpers/git-repo';
import { fleetFlowWorld } from '../helpers/fleet-flow';
import { tmpdir } from 'node:os';
import { FakeGitHub } from './fake-github-server';
import { seedFromCheckout } from './helpers';

const ACTION = parse(readFileSync(join(__dirname, '..', '..', 'action.yml'), 'utf8'));
const AT = new Date('2026-03-01T10:00:00Z');

let fake: FakeGitHub;
let repo: string;

beforeEach(async () => {
  fake = await FakeGitHub.start({ git: true });
  repo = makeRepo(['echoserver'], 'apps:\n  - source: apps/*\n    output: deploy/{name}\n', AT);
  seedFromCheckout(fake, repo);
});
afterEach(async () => {
  await fake.close();
  rmSync(repo, { recursive: true, force: true });
  expect(fake.violations).toEqual([]);
});

/** The INPUT_* variables the runner sets: one per input of action.yml (its default unless given), plus `given`. */
function runnerInputs(given: Record<string, string>): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(ACTION.inputs as Record<string, { default?: string }>))
    inputs[`INPUT_${name.toUpperCase()}`] = name === 'token' ? fake.token : (input.default ?? '');
  return { ...inputs, ...given };
}

async function run(given: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const env = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: fake.repository,
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_SERVER_URL: fake.serverUrl,
    GITHUB_WORKSPACE: repo,
    ROLLGEN_TEST_RETRY_UNIT_MS: '5',
    ...runnerInputs(given),
  };
  const code = await runAction(env, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

test('GIVEN the runner defaults WHEN the Action runs pr from sources THEN it opens the adopt PR', async () => {
  const r = await run({ INPUT_COMMAND: 'pr' });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect([...fake.state.pulls.values()].map((p) => p.head)).toEqual(['rollgen/echoserver/adopt']);
});

test('GIVEN flags in the app input WHEN the Action runs promote THEN it refuses the input (exit 2) and writes nothing', async () => {
  await run({ INPUT_COMMAND: 'pr' });
  const before = fake.requests.length;
  const r = await run({ INPUT_COMMAND: 'promote', INPUT_APP: 'echoserver --full', INPUT_MERGE: 'false' });
  expect(r.code).toBe(2);
  expect(r.stdout).toMatch(/^::error title=rollgen action::input "app": "--full" is not an app name/m);
  expect(fake.requests.slice(before)).toEqual([]);
});

test('GIVEN a misspelt dry-run (dry_run) WHEN the Action runs pr THEN it refuses (exit 2) instead of a writing run', async () => {
  const r = await run({ INPUT_COMMAND: 'pr', INPUT_DRY_RUN: 'true' });
  expect(r.code).toBe(2);
  expect(r.stdout).toMatch(
    /^::error title=rollgen action::input "dry_run" is not an input of rollgen \(did you mean "dry-run"\?\)/m,
  );
  expect(fake.requests).toEqual([]);
});

test('GIVEN merge: true with command pr WHEN the Action runs THEN it refuses the input (exit 2), not a normal run', async () => {
  const r = await run({ INPUT_COMMAND: 'pr', INPUT_MERGE: 'true' });
  expect(r.code).toBe(2);
  expect(r.stdout).toMatch(
    /^::error title=rollgen action::input "merge" applies to abort, promote and retry, not to pr/m,
  );
  expect(fake.requests).toEqual([]);
});

test('GIVEN an open step PR WHEN the Action runs status THEN it reads GitHub and shows the PR', async () => {
  await run({ INPUT_COMMAND: 'pr' });
  const before = fake.requests.length;
  const r = await run({ INPUT_COMMAND: 'status' });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect(r.stdout).toMatch(/^GitHub: +PR #1 \(adopt\) open/m);
  expect(fake.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
});

test('GIVEN a fleet in waves WHEN the Action runs pr THEN the job summary shows the fleet matrix: targets down, waves across, the wave PR', async () => {
  rmSync(repo, { recursive: true, force: true });
  await fake.close();
  fake = await FakeGitHub.start({ git: true });
  repo = fleetFlowWorld().repo;
  seedFromCheckout(fake, repo);
  const summary = join(tmpdir(), `rollgen-fleet-summary-${process.pid}.md`);
  writeFileSync(summary, '');
  const r = await run({ INPUT_COMMAND: 'pr', GITHUB_STEP_SUMMARY: summary });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect([...fake.state.pulls.values()].map((p) => p.head)).toEqual(['rollgen/wave_3astaging/adopt']);
  const text = readFileSync(summary, 'utf8');
  rmSync(summary, { force: true });
  expect(text).toContain(
    [
      '#### Fleet',
      '',
      '| FLEET | 1 staging | 2 prod-eu | 3 prod-us |',
      '| --- | --- | --- | --- |',
      '| web-staging | not deployed* | - | - |',
      '| web-prod-eu | - | not deployed* | - |',
      '| web-prod-us | - | - | not deployed* |',
      '| PR | opens adopt | - | - |',
    ].join('\n'),
  );
});

test('GIVEN a fleet in waves WHEN the Action runs abort with the wave input THEN the CLI gets --wave and answers for the whole wave', async () => {
  rmSync(repo, { recursive: true, force: true });
  await fake.close();
  fake = await FakeGitHub.start({ git: true });
  repo = fleetFlowWorld().repo;
  seedFromCheckout(fake, repo);
  // Nothing deployed yet: the wave has no target to abort, said once for the wave, each target's reason below.
  const r = await run({ INPUT_COMMAND: 'abort', INPUT_WAVE: 'prod-eu' });
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain('wave prod-eu: no target to abort');
  expect(r.stderr).toContain('nothing to abort: web-prod-eu/web is not deployed yet');
  expect(r.stderr).not.toContain('web-staging');
  expect([...fake.state.pulls.values()]).toEqual([]);
});
