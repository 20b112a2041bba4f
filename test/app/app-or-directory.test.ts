import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

/**
 * `rollgen CMD web` where rollgen.yaml lists app `web` with `source: web`: the word is the app (its
 * output and state), not the directory, which has no output and would show every rollout as stable.
 */
const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'argo-nginx', 'echoserver');
let repo: string;
beforeEach(async () => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-app-or-dir-'));
  fs.cpSync(EXAMPLE, path.join(repo, 'web'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: web\n    output: deploy/web\n');
  for (let i = 0; i < 2; i++) expect((await runCli(['advance'], repo)).code).toBe(0);
  const deployment = path.join(repo, 'web', 'deployment.yaml');
  fs.writeFileSync(deployment, fs.readFileSync(deployment, 'utf8').replace(/agnhost:2\.53/, 'agnhost:2.54'));
  expect((await runCli(['advance'], repo)).code).toBe(0);
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

test('an app named like its source directory: simulate and status read the app state', async () => {
  const sim = await runCli(['simulate', 'web'], repo);
  expect(sim.stdout).toMatch(/^state: web\/echoserver at step 1 of \d+\n/);
  const status = await runCli(['status', 'web'], repo);
  expect(status.stdout).toMatch(/Status:\s+\S+ Paused/);
});

test('./web (a path) is still the directory, with no output: the stable state', async () => {
  const sim = await runCli(['simulate', './web'], repo);
  expect(sim.stdout).toMatch(/^state: web\/echoserver at stable only\n/);
});

test('a bare directory name that rollgen.yaml does not list is the directory', async () => {
  fs.cpSync(path.join(repo, 'web'), path.join(repo, 'other'), { recursive: true });
  const sim = await runCli(['simulate', 'other'], repo);
  expect(sim.code).toBe(0);
  expect(sim.stdout).toMatch(/^state: other\/echoserver at stable only\n/);
});
