import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { bumpImage, commitAll, makeRepo } from '../helpers/git-repo';

/**
 * `rollgen pr --dry-run --offline`: no token, no network, no push. Run through bin/rollgen (the
 * built bundle) under a preload that makes every socket, DNS lookup and fetch throw.
 */
const ROOT = path.join(__dirname, '..', '..');
const AT = new Date('2026-03-01T09:00:00Z');
let repo: string;
let guard: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run npm run build');
  guard = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-guard-')), 'no-network.cjs');
  fs.writeFileSync(
    guard,
    [
      "const fail = (what) => () => { throw new Error('network call: ' + what); };",
      "require('net').Socket.prototype.connect = fail('socket');",
      "require('dns').lookup = fail('dns');",
      "require('http').request = fail('http'); require('https').request = fail('https');",
      "globalThis.fetch = fail('fetch');",
    ].join('\n'),
  );
});
beforeEach(() => {
  repo = makeRepo(['echo'], 'apps:\n  - source: apps/echo\n    output: deploy/echo\n', AT);
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

function guarded(args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_')));
  return spawnSync(process.execPath, ['--require', guard, path.join(ROOT, 'bin', 'rollgen'), ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...clean, ...env },
  });
}

test('prints the title and body of the PR each app would get, with no token and no network', () => {
  const r = guarded(['pr', '--dry-run', '--offline']);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(
    /^== echo: rollgen\/echo\/adopt ==\ntitle: rollgen\(echo\): adopt: track label on the pods\n/,
  );
  expect(r.stdout).toContain('labels: rollgen, rollgen:manual');
  expect(r.stdout).toContain('### echo: adopt');
  expect(r.stdout).toContain('<!-- rollgen: {');
});

test('the guard bites: a fetch, an https request and a socket under it all throw', () => {
  const probe = [
    "for (const [what, call] of [['fetch', () => fetch('https://api.github.com')], ['https', () => require('https').request('https://api.github.com')], ['socket', () => require('net').connect(443, '127.0.0.1')]]) {",
    "  try { call(); console.log(what + ' passed'); } catch (e) { console.log(e.message); }",
    '}',
  ].join('\n');
  const r = spawnSync(process.execPath, ['--require', guard, '-e', probe], { encoding: 'utf8' });
  expect(r.stdout).toBe('network call: fetch\nnetwork call: https\nnetwork call: socket\n');
});

test('the abort path names the repository when GITHUB_REPOSITORY is set, and the gh line without it', async () => {
  await runCli(['advance', 'echo', '--commit'], repo);
  await runCli(['advance', 'echo', '--commit'], repo);
  bumpImage(repo, 'echo', '2.54', AT);
  const named = guarded(['pr', '--dry-run', '--offline'], { GITHUB_REPOSITORY: 'acme/deploy' });
  expect(named.stdout).toContain('](https://github.com/acme/deploy/actions/workflows/rollgen.yml)');
  const unnamed = guarded(['pr', '--dry-run', '--offline']);
  expect(unnamed.stdout).not.toContain('/actions/workflows/');
  expect(unnamed.stdout).toContain('`gh workflow run rollgen.yml -f command=abort -f app=echo -f merge=true`');
  expect(unnamed.stdout).toContain(
    '| echo | `registry.k8s.io/e2e-test-images/agnhost:2.53` | `registry.k8s.io/e2e-test-images/agnhost:2.54` |',
  );
});

test('--offline without --dry-run is refused: nothing can be opened without GitHub', async () => {
  const r = await runCli(['pr', '--offline'], repo);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--offline goes with --dry-run');
  const abort = await runCli(['abort', 'echo', '--offline'], repo);
  expect(abort.code).toBe(2);
  expect(abort.stderr).toContain('--offline go with --pr');
});

test('an app with nothing to propose says so', async () => {
  await runCli(['advance', 'echo', '--commit'], repo);
  await runCli(['advance', 'echo', '--commit'], repo);
  const r = await runCli(['pr', '--dry-run', '--offline'], repo, '', { env: {} });
  expect(r.stdout).toBe('== echo: no PR to propose ==\n\n');
});

test('pr.workflow in rollgen.yaml names the workflow the abort path dispatches', async () => {
  fs.writeFileSync(
    path.join(repo, 'rollgen.yaml'),
    'apps:\n  - source: apps/echo\n    output: deploy/echo\npr:\n  workflow: deploy.yaml\n',
  );
  await runCli(['advance', 'echo', '--commit'], repo);
  await runCli(['advance', 'echo', '--commit'], repo);
  bumpImage(repo, 'echo', '2.54', AT);
  const r = await runCli(['pr', '--dry-run', '--offline'], repo, '', { env: { GITHUB_REPOSITORY: 'acme/deploy' } });
  expect(r.stdout).toContain('(https://github.com/acme/deploy/actions/workflows/deploy.yaml)');
  expect(r.stdout).toContain('`gh workflow run deploy.yaml -f command=abort -f app=echo -f merge=true`');
});

test('a body template of your own gets the new fields; a commit subject prints with control characters escaped', async () => {
  fs.mkdirSync(path.join(repo, '.github'), { recursive: true });
  fs.writeFileSync(
    path.join(repo, '.github/body.hbs'),
    [
      '{{#each changes}}{{rollout}}:{{#each images}} {{container}} {{from}} -> {{to}}{{/each}} [{{fields.length}} fields]{{/each}}',
      'commit: {{#if sourceCommit}}{{sourceCommit.short}} {{sourceCommit.subject}}{{/if}}',
      'merging: {{mergeEffect}}',
      'next: {{next.text}} ({{next.gate.kind}})',
      '{{#if abort}}abort: {{abort.gh}} | {{abort.cli}}{{/if}}',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(repo, 'rollgen.yaml'),
    'apps:\n  - source: apps/echo\n    output: deploy/echo\npr:\n  bodyTemplate: .github/body.hbs\n',
  );
  await runCli(['advance', 'echo', '--commit'], repo);
  await runCli(['advance', 'echo', '--commit'], repo);
  const file = path.join(repo, 'apps/echo/deployment.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/agnhost:2\.53/, 'agnhost:2.54'));
  commitAll(repo, 'echo 2.54 \u001b[31mred', AT);
  const r = await runCli(['pr', '--dry-run', '--offline'], repo, '', { env: {} });
  expect(r.stderr).toBe('');
  const body = r.stdout.split('\n\n').slice(1).join('\n\n');
  expect(body).toMatch(
    /^echo-rollout: echo registry\.k8s\.io\/e2e-test-images\/agnhost:2\.53 -> registry\.k8s\.io\/e2e-test-images\/agnhost:2\.54 \[0 fields\]\ncommit: [0-9a-f]{10} echo 2\.54 \\u001b\[31mred\nmerging: Argo CD or Flux applies step 1: 1 canary pod starts first \(stable runs 5 of 5 replicas\), then the routes send 20% of traffic to the canary\.\nnext: step 2 \(40%\) opens after a person merges its PR\. \(manual\)\nabort: gh workflow run rollgen\.yml -f command=abort -f app=echo -f merge=true \| rollgen abort echo --pr --merge\n/,
  );
});

test('GIVEN a committed status file whose step was edited by hand WHEN rollgen pr runs THEN it proposes nothing from it and says how to recover', async () => {
  const env = { env: {} };
  for (let i = 0; i < 2; i++) expect((await runCli(['advance'], repo, '', env)).code).toBe(0);
  commitAll(repo, 'adopted', AT);
  bumpImage(repo, 'echo', '2.54', AT);
  expect((await runCli(['advance'], repo, '', env)).code).toBe(0);
  commitAll(repo, 'step 1', AT);
  const status = path.join(repo, 'deploy', 'echo', 'rollgen-status.yaml');
  fs.writeFileSync(status, fs.readFileSync(status, 'utf8').replace(/step: 1\n/, 'step: 4\n'));
  commitAll(repo, 'a bad merge-conflict fix', AT);
  const r = await runCli(['pr', '--dry-run', '--offline'], repo, '', env);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    'deploy/echo/rollgen-status.yaml: its rollouts (step, phase or revisions) changed by hand',
  );
  expect(r.stdout).not.toContain('promote');
});

test('GIVEN partition style whose step gives the canary every pod WHEN rollgen pr proposes it THEN its body tells all traffic, not the routed share', async () => {
  const edit = (file: string, from: RegExp | string, to: string) => {
    const full = path.join(repo, 'apps/echo', file);
    fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(from, to));
  };
  edit('rollout.yaml', 'rolling-style: canary', 'rolling-style: partition');
  edit('rollout.yaml', 'weight: 40', 'weight: 60'); // step 2: 60% of 2 replicas is both pods
  edit('deployment.yaml', /replicas: \d+/, 'replicas: 2');
  commitAll(repo, 'partition style, two replicas', AT);
  fs.mkdirSync(path.join(repo, '.github'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.github/body.hbs'), 'merging: {{mergeEffect}}\nnext: {{next.text}}\n');
  fs.appendFileSync(path.join(repo, 'rollgen.yaml'), 'pr:\n  bodyTemplate: .github/body.hbs\n');
  await runCli(['advance', 'echo', '--commit'], repo);
  bumpImage(repo, 'echo', '2.54', AT);
  for (let i = 0; i < 2; i++) expect((await runCli(['advance', 'echo', '--commit'], repo)).code).toBe(0);
  const r = await runCli(['pr', '--dry-run', '--offline'], repo, '', { env: {} });
  expect(r.stdout).toContain(
    'merging: Argo CD or Flux applies step 2: 2 canary pods start first (stable runs 0 of 2 replicas); with no stable pod left, the stable Service selects the canary pods too: the new version serves all traffic.\n' +
      'next: step 3 (all traffic: no stable pod) opens after 600 s',
  );
});
