/**
 * The Action run from its sources (action/src/run-action.ts, in this process) as the runner runs it:
 * every input action.yml declares is set (the runner fills in the defaults), the workspace a real
 * git checkout, GITHUB_API_URL the fake GitHub. The committed bundle is run in action-pr.test.ts.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runAction } from '../../action/src/run-action';
import { makeRepo } from '../helpers/git-repo';
import { FakeGitHub } from './fake-github-server';
import { seedFromCheckout } from './helpers';

const ACTION = parse(readFileSync(join(__dirname, '..', '..', 'action.yml'), 'utf8'));
const AT = new Date('2026-03-01T10:00:00Z');

let fake: FakeGitHub;
let repo: string;

beforeEach(async () => {
  fake = await FakeGitHub.start();
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
    GITHUB_WORKSPACE: repo,
    ROLLGEN_TEST_RETRY_UNIT_MS: '5',
    ...runnerInputs(given),
  };
  const code = await runAction(env, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr, writes: fake.requests.filter((q) => q.method !== 'GET') };
}

test('GIVEN the runner defaults WHEN the Action runs pr from sources THEN it opens the adopt PR', async () => {
  const r = await run({ INPUT_COMMAND: 'pr' });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  expect([...fake.state.pulls.values()].map((p) => p.head)).toEqual(['rollgen/echoserver/adopt']);
});
