import * as fs from 'fs';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { validateAgainstSchemas } from './helpers/schema';

/** Every app under examples/ plans and renders every step with no diagnostics, and validates. */
const ROOT = path.join(__dirname, '..', 'examples');
const isDir = (p: string) => fs.statSync(p).isDirectory();
const apps = fs
  .readdirSync(ROOT)
  .filter((group) => isDir(path.join(ROOT, group)))
  .flatMap((group) =>
    fs
      .readdirSync(path.join(ROOT, group))
      .filter((a) => fs.statSync(path.join(ROOT, group, a)).isDirectory())
      .map((a) => path.join(group, a)),
  );

test.each(apps)('examples/%s renders every step cleanly', async (app) => {
  const plan = await runCli(['plan', app, '--json'], ROOT);
  expect(plan.stderr).toBe('');
  expect(plan.code).toBe(0);
  const steps = JSON.parse(plan.stdout).apps[0].rollouts[0].steps.length;
  for (let step = 0; step <= steps; step++) {
    const r = await runCli(['render', app, '--step', String(step)], ROOT);
    expect(r.stderr).toBe('');
    expect(validateAgainstSchemas(r.stdout).length).toBeGreaterThan(0);
  }
});

test('the README demo command renders step 2 of the example', async () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
  const demo = /bin\/rollgen (render [^\s]+ --step \d+)/.exec(readme)!;
  const r = await runCli(demo[1].split(' '), path.join(__dirname, '..'));
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('name: echoserver-canary');
});
