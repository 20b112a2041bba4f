import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';

const EXAMPLE = path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver');
let repo: string;

/** A repo with rollgen.yaml and two apps from one glob; `second` gets its own host unless told to share. */
function makeRepo(shareHost: boolean): void {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-cli-'));
  for (const name of ['echo-a', 'echo-b']) {
    const dir = path.join(repo, 'apps', name);
    fs.cpSync(EXAMPLE, dir, { recursive: true });
    for (const f of fs.readdirSync(dir)) {
      const file = path.join(dir, f);
      let text = fs
        .readFileSync(file, 'utf8')
        .replace(/echoserver/g, name)
        .replace('rollouts-demo', `${name}-rollout`);
      if (!shareHost) text = text.replace(/echo\.example\.com/g, `${name}.example.com`);
      else text = text.replace(/echo\.example\.com/g, 'shared.example.com');
      fs.writeFileSync(file, text);
    }
  }
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
}
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

test('rollgen.yaml: apps from a glob, commands by name or all at once, outputs from {name}', async () => {
  makeRepo(false);
  expect((await runCli(['validate'], repo)).stdout).toBe('echo-a: ok (1 rollout)\necho-b: ok (1 rollout)\n');
  const adv = await runCli(['advance', 'echo-b'], repo);
  expect(adv.code).toBe(0);
  expect(fs.existsSync(path.join(repo, 'deploy', 'echo-b', 'kustomization.yaml'))).toBe(true);
  expect(fs.existsSync(path.join(repo, 'deploy', 'echo-a'))).toBe(false);
  const status = await runCli(['status'], repo);
  expect(status.stdout).toMatch(/^Name: +echo-a\/echo-a-rollout\nStatus: +○ NotDeployed\n/m);
  expect(status.stdout).toMatch(/^Name: +echo-b\/echo-b-rollout\nStatus: +◌ Adopting\n/m);
  expect(status.stdout).toMatch(/^ +Step: +-\/4$/m);
  const unknown = await runCli(['plan', 'nope'], repo);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toMatch(/no app "nope" in rollgen.yaml; known: echo-a, echo-b/);
});

test('advance refused while loading leaves no output directory, though they are made while it loads', async () => {
  makeRepo(true); // both apps claim one host: the repo-wide check refuses them after every app is read
  const r = await runCli(['advance'], repo);
  expect(r.code).toBe(2);
  expect(fs.existsSync(path.join(repo, 'deploy'))).toBe(false);
});

test('advance that cannot lock one output removes the directories it made for the others', async () => {
  makeRepo(false);
  fs.mkdirSync(path.join(repo, 'deploy', 'echo-a'), { recursive: true });
  // This test process is alive: its lock is not stale, and the run gives up at once.
  fs.writeFileSync(path.join(repo, 'deploy', 'echo-a', '.rollgen-lock'), `${process.pid}\n${os.hostname()}\n`);
  const r = await runCli(['advance'], repo, '', { env: { ...process.env, ROLLGEN_LOCK_TIMEOUT: '0' } });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('is being written by another rollgen run');
  expect(fs.readdirSync(path.join(repo, 'deploy'))).toEqual(['echo-a']);
  expect(fs.readdirSync(path.join(repo, 'deploy', 'echo-a'))).toEqual(['.rollgen-lock']);
});

test('one nginx canary per host+path across all apps: the conflict names both apps', async () => {
  makeRepo(true);
  const r = await runCli(['validate'], repo);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /app echo-b, rollout echo-b-rollout and app echo-a, rollout echo-a-rollout \(apps\/echo-a\/ingress.yaml:\d+\) both need a canary for .*host shared.example.com path \//,
  );
});

test('-f - reads a multi-document stream (kustomize build | rollgen render -f -)', async () => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-cli-'));
  const stream = fs
    .readdirSync(EXAMPLE)
    .map((f) => fs.readFileSync(path.join(EXAMPLE, f), 'utf8'))
    .join('\n---\n');
  const r = await runCli(['render', '-f', '-', '--step', '1'], repo, stream);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('nginx.ingress.kubernetes.io/canary-weight: "20"');
});

test('simulate prints the split per pods, and errors map to exit codes', async () => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-cli-'));
  const sim = await runCli(
    ['simulate', EXAMPLE, '--step', '2', '--host', 'echo.example.com', '--header', 'x-canary=on'],
    repo,
  );
  expect(sim.stdout).toBe(
    'state: echoserver/rollouts-demo at step 2 of 4\nrequest: host echo.example.com, path /, header x-canary=on\n' +
      'rule: canary-by-header x-canary=on\n 100.0%  service echoserver-canary -> echoserver-canary\n',
  );
  const weighted = await runCli(['simulate', EXAMPLE, '--step', '2', '--host', 'echo.example.com'], repo);
  expect(weighted.stdout).toMatch(
    /\nrule: canary-weight 40\/100\n {2}60\.0% {2}service echoserver -> echoserver\n {2}40\.0% {2}service echoserver-canary -> echoserver-canary\n$/,
  );
  expect((await runCli(['render', EXAMPLE, '--step', '9'], repo)).code).toBe(2);
  expect((await runCli(['advance', EXAMPLE], repo)).stderr).toMatch(/needs an output directory/);
  expect((await runCli(['bogus'], repo)).code).toBe(2);
  const quiet = await runCli(['render', EXAMPLE, '--step', '9'], repo);
  expect(quiet.stderr).not.toMatch(/\n\s+at /);
  expect((await runCli(['--debug', 'render', EXAMPLE, '--step', '9'], repo)).stderr).toMatch(
    /InputError[\s\S]*\n\s+at /,
  );
});
