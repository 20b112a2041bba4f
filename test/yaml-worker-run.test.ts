import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { EXAMPLE } from './helpers/git-repo';
import { BIN } from './helpers/rollout-dir';

/**
 * A repo of many apps (a dozen, with the test seam that shares from 8), as `rollgen advance` meets it in a real process: the built CLI shares the
 * parsing and the serializing with its YAML worker (src/io/yaml-pool.ts); run in-process from the
 * sources (as jest does) there is no worker. Both must print and write the same, byte for byte,
 * including the positions of warnings and errors in the apps the worker parsed (the last ones).
 */
const APPS = 12;
// The CLI shares from this many apps of any size (a test seam; without it, from 64 apps and 256 KB).
const SEAM = { ROLLGEN_TEST_YAML_POOL_MIN_GROUPS: '8' };
// Without a second core there is no worker: these tests say so and are skipped.
const twoCores = os.availableParallelism() >= 2;
const shared = twoCores ? test : test.skip;
if (!twoCores) console.warn('yaml-worker-run: one core here, so the worker tests are skipped');

/** NODE_DEBUG for the CLI: Node's worker lines (the worker started) and rollgen's (groups it did). */
const DEBUG = { NODE_DEBUG: 'worker,rollgen-yaml', ...SEAM };
const debugLine = (l: string) => l.startsWith('WORKER ') || l.startsWith('ROLLGEN-YAML ');
/** The YAML passes a run handed to its worker, from its NODE_DEBUG=rollgen-yaml lines. */
const passesShared = (stderr: string) => stderr.match(/^ROLLGEN-YAML \d+: \d+ of \d+ groups/gm)?.length ?? 0;
// Comments as users write them (the worker reads them too).
const NOTES = `# ${'Owned by the payments team; page #payments-oncall before changing the canary steps. '.repeat(4)}\n`;

/** `lastApp` edits each file of the last app (by file name). */
function makeRepo(lastApp: (file: string, text: string) => string): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-yaml-worker-'));
  fs.writeFileSync(path.join(repo, 'rollgen.yaml'), 'apps:\n  - source: apps/*\n    output: deploy/{name}\n');
  for (let i = 0; i < APPS; i++) {
    const name = `echo-${String(i).padStart(2, '0')}`;
    const dir = path.join(repo, 'apps', name);
    fs.mkdirSync(dir, { recursive: true });
    for (const file of fs.readdirSync(EXAMPLE).filter((f) => f.endsWith('.yaml'))) {
      const own = fs
        .readFileSync(path.join(EXAMPLE, file), 'utf8')
        .replace(/echoserver/g, name)
        .replace(/echo\.example\.com/g, `${name}.example.com`);
      const text = NOTES + (i === APPS - 1 ? lastApp(file, own) : own);
      fs.writeFileSync(path.join(dir, file), text);
    }
  }
  return repo;
}

/** Every file of a directory tree, by relative path. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** `advance` in two copies of the repo, `times` times: the built CLI as a process (with its worker) and main() in-process. */
async function bothWays(lastApp: (file: string, text: string) => string, times = 1) {
  const a = makeRepo(lastApp);
  const b = makeRepo(lastApp);
  const runs = [];
  try {
    for (let n = 0; n < times; n++) {
      const proc = spawnSync(BIN, ['advance'], {
        cwd: a,
        encoding: 'utf8',
        env: { ...process.env, ...DEBUG },
      });
      const workerStarted = /create new worker .*yaml-worker\.js/.test(proc.stderr);
      const passes = passesShared(proc.stderr);
      const stderr = proc.stderr
        .split('\n')
        .filter((l) => !debugLine(l))
        .join('\n');
      const here = await runCli(['advance'], b);
      runs.push({
        workerStarted,
        passes,
        process: { code: proc.status, stdout: proc.stdout, stderr, deploy: tree(path.join(a, 'deploy')) },
        inProcess: { code: here.code, stdout: here.stdout, stderr: here.stderr, deploy: tree(path.join(b, 'deploy')) },
      });
    }
    return runs;
  } finally {
    fs.rmSync(a, { recursive: true, force: true });
    fs.rmSync(b, { recursive: true, force: true });
  }
}

shared(
  'GIVEN 12 apps, the last one disabled WHEN advanced twice by the CLI THEN its worker ran and outputs and warnings are the same as without it',
  async () => {
    const [first, second] = await bothWays(
      (file, text) => (file === 'rollout.yaml' ? text.replace(/^spec:\n/m, 'spec:\n  disabled: true\n') : text),
      2,
    );
    for (const r of [first, second]) {
      expect(r.workerStarted).toBe(true);
      expect(r.inProcess.code).toBe(0);
      // The warning points into the last app's rollout, at `disabled:` (a position the worker's parse finds again).
      expect(r.inProcess.stderr).toContain(
        `apps/echo-${APPS - 1}/rollout.yaml:10:13: warning: rollout rollouts-demo is disabled (spec.disabled: true)`,
      );
      expect(r.process).toEqual(r.inProcess);
    }
    expect(Object.keys(first.inProcess.deploy).length).toBeGreaterThan(APPS * 4);
    // The second run read every output (parsed by the worker too) and moved the other apps to their next step.
    expect(second.inProcess.deploy).not.toEqual(first.inProcess.deploy);
    expect(second.inProcess.stdout).toContain('echo-00/rollouts-demo');
    // Each run handed its YAML passes to the worker (how much it took depends on the two threads'
    // speeds; test/io/yaml-pool.test.ts shows that what it returns is the same).
    for (const r of [first, second]) expect(r.passes).toBeGreaterThan(0);
  },
);

shared(
  'GIVEN 12 apps, the last one with an invalid step WHEN advanced by the CLI THEN it fails as without the worker, at the same line and column',
  async () => {
    const [r] = await bothWays((file, text) =>
      file === 'rollout.yaml' ? text.replace('- weight: 20', '- weight: 120') : text,
    );
    expect(r.workerStarted).toBe(true);
    expect(r.inProcess.code).toBe(2);
    expect(r.inProcess.stderr).toContain(
      `apps/echo-${APPS - 1}/rollout.yaml:18:19: spec.strategy.canary.steps[0].weight: must be <= 100, found 120`,
    );
    expect(r.inProcess.deploy).toEqual({});
    expect(r.process).toEqual(r.inProcess);
  },
);

shared(
  "GIVEN 12 apps, the last one claiming the first one's host WHEN advanced by the CLI THEN the conflict points at both, as without the worker",
  async () => {
    const [r] = await bothWays((file, text) =>
      file === 'ingress.yaml' ? text.replaceAll(`echo-${APPS - 1}.example.com`, 'echo-00.example.com') : text,
    );
    expect(r.workerStarted).toBe(true);
    expect(r.inProcess.code).toBe(2);
    expect(r.inProcess.stderr).toContain(
      `apps/echo-${APPS - 1}/ingress.yaml:15:13: app echo-${APPS - 1}, rollout rollouts-demo and app echo-00, rollout rollouts-demo (apps/echo-00/ingress.yaml:15) both need a canary`,
    );
    expect(r.process).toEqual(r.inProcess);
  },
);

shared(
  'GIVEN 12 apps and no index WHEN one app is rendered by the CLI THEN the other apps are loaded with a worker started, with the same result and notes',
  async () => {
    // The last app is broken: a note names it, from a load the worker's parse fed.
    const repo = makeRepo((file, text) =>
      file === 'rollout.yaml' ? text.replace('- weight: 20', '- weight: 120') : text,
    );
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-yaml-worker-cache-'));
    try {
      const env = { ...process.env, ...DEBUG, ROLLGEN_CACHE_DIR: cache };
      const proc = spawnSync(BIN, ['render', 'echo-00', '--step', '1'], { cwd: repo, encoding: 'utf8', env });
      expect(proc.stderr).toMatch(/create new worker .*yaml-worker\.js/);
      const stderr = proc.stderr
        .split('\n')
        .filter((l) => !debugLine(l))
        .join('\n');
      const here = await runCli(['render', 'echo-00', '--step', '1'], repo, '', {
        env: { ...process.env, ROLLGEN_CACHE_DIR: fs.mkdtempSync(path.join(cache, 'in-process-')) },
      });
      expect(here.stderr).toContain(`note: app echo-${APPS - 1} has errors and is left out of repo-wide checks`);
      expect({ code: proc.status, stdout: proc.stdout, stderr }).toEqual(here);
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
      fs.rmSync(cache, { recursive: true, force: true });
    }
  },
);
