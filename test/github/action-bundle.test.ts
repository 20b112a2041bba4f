/**
 * The committed Action bundle (action/dist/index.js) as the runner uses it: current with its
 * sources, and run end to end with `node` in a child process under the variables GitHub sets,
 * GITHUB_API_URL pointing at the fake GitHub. `pr` against a real git checkout is in
 * action-pr.test.ts.
 */
import { runProcess } from '../helpers/run-process';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeGitHub } from './fake-github-server';

const ROOT = join(__dirname, '..', '..');
const BUNDLE = join(ROOT, 'action', 'dist', 'index.js');
const EXAMPLE = join(ROOT, 'examples', 'kruise-nginx', 'echoserver');

let fake: FakeGitHub;
let dir: string;
beforeEach(async () => {
  fake = await FakeGitHub.start();
  dir = mkdtempSync(join(tmpdir(), 'rollgen-action-'));
  cpSync(EXAMPLE, join(dir, 'workspace', 'apps', 'echoserver'), { recursive: true });
  writeFileSync(join(dir, 'workspace', 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
  writeFileSync(join(dir, 'output'), '');
  writeFileSync(join(dir, 'summary'), '');
});
afterEach(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
  expect(fake.violations).toEqual([]);
});

/**
 * Runs the bundle like the runner: a clean environment with only what GitHub provides. Async: the
 * fake GitHub lives in this process and must keep answering (status reads it).
 */
async function runAction(inputs: Record<string, string>) {
  const env = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: fake.repository,
    GITHUB_API_URL: fake.apiUrl,
    GITHUB_WORKSPACE: join(dir, 'workspace'),
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
    INPUT_TOKEN: fake.token,
    INPUT_CONFIG: 'rollgen.yaml',
    INPUT_APP: '',
    'INPUT_DRY-RUN': 'false',
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

test('GIVEN the committed bundle WHEN rebuilt from the sources THEN it is byte-for-byte the same (npm run build:action)', () => {
  const check = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-action.mjs'), '--check'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
});

test('GIVEN the bundle WHEN a metric provider needs its vendor client THEN it loads from action/dist/vendor beside the bundle, never parsed at start', () => {
  expect(readFileSync(BUNDLE, 'utf8')).not.toContain('GraniteServiceVersion20100801');
  const vendor = (c: string) => JSON.stringify(join(ROOT, 'action', 'dist', 'vendor', `${c}.js`));
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const aws = require(${vendor('aws')}), influx = require(${vendor('influxdb')});
       process.stdout.write([aws.CloudWatchClient, aws.SignatureV4, aws.defaultProvider, influx.InfluxDB].map((f) => typeof f).join())`,
    ],
    { encoding: 'utf8' },
  );
  expect(probe.stdout).toBe('function,function,function,function');
});

test('GIVEN command validate WHEN the Action runs THEN it validates the workspace, writes empty PR outputs and a summary, calls no API', async () => {
  const r = await runAction({ INPUT_COMMAND: 'validate' });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  // The CLI's output, between GitHub's stop-commands and the resume token (no `::` line of it is a command).
  expect(r.stdout).toMatch(/^::stop-commands::([0-9a-f]{32})\nechoserver: ok \(1 rollout\)\n::\1::\n$/);
  expect(r.output).toBe(
    'opened=[]\nupdated=[]\nmerged=[]\nreport={"opened":[],"updated":[],"merged":[],"closed":[],"waiting":[],"deferred":[]}\n',
  );
  expect(r.summary).toBe(
    '### rollgen validate\n\nNo pull requests were opened, updated, merged or closed.\n\nFinished successfully.\n',
  );
  expect(fake.requests).toEqual([]);
});

test('GIVEN command status for one app WHEN the Action runs THEN the CLI output for that app, with what GitHub has (--pr)', async () => {
  const r = await runAction({ INPUT_COMMAND: 'status', INPUT_APP: 'echoserver' });
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^Name: +echoserver\/rollouts-demo\nStatus: +○ NotDeployed$/m);
  expect(r.stdout).toMatch(/^GitHub: +no open rollgen PR for this app$/m);
});

test('GIVEN a config that does not exist WHEN the Action runs THEN the CLI exit status, an error annotation and a failed summary', async () => {
  const r = await runAction({ INPUT_COMMAND: 'validate', INPUT_CONFIG: 'missing.yaml' });
  expect(r.code).not.toBe(0);
  expect(r.stdout).toMatch(/^::error title=rollgen validate::.*missing\.yaml/m);
  expect(r.summary).toContain(`Failed with exit status ${r.code}`);
  expect(r.output).toMatch(/^opened=\[\]$/m);
});

test('GIVEN an unknown command WHEN the Action runs THEN exit 2 with an annotation naming the input, nothing written', async () => {
  const r = await runAction({ INPUT_COMMAND: 'deploy' });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe(
    '::error title=rollgen action::input "command" must be one of pr, abort, promote, retry, validate, status; got "deploy"\n',
  );
  expect(r.output).toBe('');
});

test('GIVEN the token input WHEN the Action runs, failing or not THEN the token is in no output, summary or log', async () => {
  const runs = [
    await runAction({ INPUT_COMMAND: 'validate' }),
    await runAction({ INPUT_COMMAND: 'validate', INPUT_CONFIG: 'missing.yaml' }),
  ];
  const everything = runs.map((r) => r.stdout + r.stderr + r.output + r.summary).join('');
  expect(everything).toContain('rollgen validate');
  expect(everything).not.toContain(fake.token);
});
