import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

/**
 * The number of steps changed while a rollout progresses: moving on by the recorded step would
 * skip the canary (two steps left at step 3 went straight to promotion). Kruise refuses the change;
 * Argo starts the canary again from its first step.
 */
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-steps-changed-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const edit = (file: string, from: RegExp | string, to: string) => {
  const full = path.join(dir, 'src', file);
  fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(from, to));
};
const advance = async (...extra: string[]) => runCli(['advance', 'src', 'out', ...extra], dir);
const status = () => fs.readFileSync(path.join(dir, 'out', 'rollgen-status.yaml'), 'utf8');

/** The example adopted, given a new image and advanced `steps` times. */
async function progressing(example: string, workload: string, steps: number): Promise<void> {
  fs.cpSync(path.join(EXAMPLES, example), path.join(dir, 'src'), { recursive: true });
  for (let i = 0; i < 2; i++) expect((await advance()).code).toBe(0);
  edit(workload, /agnhost:2\.53/, 'agnhost:2.54');
  for (let i = 0; i < steps; i++) expect((await advance()).code).toBe(0);
}

test('GIVEN a Kruise rollout at step 3 of 4 whose last two steps are deleted WHEN advanced THEN refused at the steps, nothing written; abort and retry run the new steps', async () => {
  await progressing('kruise-nginx/echoserver', 'deployment.yaml', 3);
  expect(status()).toMatch(/phase: Progressing\n +step: 3\n +steps: 4\n/);
  const before = status();
  edit('rollout.yaml', /\n {8}- weight: 60\n[\s\S]*?weight: 100\n/, '\n');
  const r = await advance();
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^src\/rollout\.yaml:\d+:\d+: rollout rollouts-demo is at step 3 of 4, and its steps are now 2: Kruise refuses a change to the number of steps while a rollout progresses/m,
  );
  expect(status()).toBe(before);
  expect((await runCli(['promote', 'src', 'out'], dir)).code).toBe(2);
  expect((await runCli(['abort', 'src', 'out'], dir)).code).toBe(0);
  expect((await runCli(['retry', 'src', 'out'], dir)).code).toBe(0);
  expect(status()).toMatch(/phase: Progressing\n +step: 1\n +steps: 2\n/);
  expect((await advance()).stdout).toContain('step 1 of 2 -> step 2 of 2');
});

test('GIVEN an Argo rollout whose steps changed in number mid-canary WHEN advanced THEN it starts again at step 1, as Argo does', async () => {
  await progressing('argo-nginx/echoserver', 'deployment.yaml', 3);
  expect(status()).toMatch(/phase: Progressing\n +step: 3\n/);
  edit('rollout.yaml', /\n {8}- setWeight: 500\n/, '\n');
  const r = await advance();
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/steps changed from \d+ to \d+: restart at step 1, as Argo does/);
  expect(status()).toMatch(/phase: Progressing\n +step: 1\n/);
});
