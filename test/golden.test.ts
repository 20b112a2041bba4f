import * as fs from 'fs';
import * as path from 'path';
import { runCli } from './helpers/cli';

/**
 * Golden cases: test/golden/<provider>/<case>/ holds `source/` and either `expected/` (plan.txt and
 * step-NN.yaml for every step, 00 = stable only) or `errors.txt` (one regex per line, each must match
 * the output of `validate`). UPDATE_GOLDEN=1 rewrites `expected/` from the actual output.
 */
const ROOT = path.join(__dirname, 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

export function goldenCases(): { provider: string; name: string; dir: string }[] {
  return fs
    .readdirSync(ROOT)
    .flatMap((provider) =>
      fs
        .readdirSync(path.join(ROOT, provider))
        .map((name) => ({ provider, name, dir: path.join(ROOT, provider, name) })),
    );
}

function check(file: string, actual: string): void {
  if (UPDATE) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  if (!fs.existsSync(file)) throw new Error(`${file} is missing; run UPDATE_GOLDEN=1 npx jest test/golden.test.ts`);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

describe.each(goldenCases())('golden $provider/$name', ({ dir }) => {
  const errorsFile = path.join(dir, 'errors.txt');
  if (fs.existsSync(errorsFile)) {
    test('reports every expected error and exits 2', async () => {
      const result = await runCli(['validate', 'source'], dir);
      expect(result.code).toBe(2);
      const patterns = fs
        .readFileSync(errorsFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      for (const p of patterns) expect(result.stderr).toMatch(new RegExp(p));
      expect(result.stderr).not.toMatch(/internal error|at .*\.ts:\d+/);
    });
    return;
  }

  test('plan', async () => {
    const result = await runCli(['plan', 'source'], dir);
    // Warnings a case expects (e.g. a Kruise step's traffic ignored in match mode) are golden too.
    const warnings = path.join(dir, 'expected', 'warnings.txt');
    if (fs.existsSync(warnings) || result.stderr !== '') check(warnings, result.stderr);
    check(path.join(dir, 'expected', 'plan.txt'), result.stdout);
  });

  test('every step renders as expected, byte for byte', async () => {
    const plan = JSON.parse((await runCli(['plan', 'source', '--json'], dir)).stdout);
    const steps = Math.max(...plan.apps[0].rollouts.map((r: { steps: unknown[] }) => r.steps.length));
    for (let step = 0; step <= steps; step++) {
      const result = await runCli(['render', 'source', '--step', String(step)], dir);
      expect(result.code).toBe(0);
      check(path.join(dir, 'expected', `step-${String(step).padStart(2, '0')}.yaml`), result.stdout);
    }
  });
});
