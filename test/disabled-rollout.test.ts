import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { FlowWorld } from './helpers/flow-world';
import { bumpImage, commitAll, EXAMPLE } from './helpers/git-repo';
import { BIN, makeAppDir, setImage } from './helpers/rollout-dir';

/**
 * Kruise `spec.disabled: true`: the controller leaves the workload alone, so the Deployment rolls
 * out as a plain Deployment. `advance` and `rollgen pr` write the source as it is (run
 * `npm run build` first for bin/rollgen), never a canary, and say why.
 */
const disable = (file: string) =>
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^spec:\n/m, 'spec:\n  disabled: true\n'));

function advance(dir: string): { stdout: string; stderr: string; code: number | null } {
  const r = spawnSync(BIN, ['advance', 'src', 'out'], { cwd: dir, encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

describe('bin/rollgen advance with a disabled Kruise rollout', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeAppDir('rollgen-disabled-', EXAMPLE);
    disable(path.join(dir, 'src', 'rollout.yaml'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const deployment = () => parse(fs.readFileSync(path.join(dir, 'out', 'deployment-echoserver.yaml'), 'utf8'));

  test('the first advance writes the source as is; a new template updates the Deployment in one commit, no canary', () => {
    const first = advance(dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/rollouts-demo: plain rolling update \(spec\.disabled: no canary\)\nwrote out/);
    expect(first.stderr).toMatch(
      /rollout\.yaml:\d+:\d+: warning: rollout rollouts-demo is disabled \(spec\.disabled: true\)/,
    );
    expect(fs.readdirSync(path.join(dir, 'out')).sort()).toEqual([
      'deployment-echoserver.yaml',
      'ingress-echoserver.yaml',
      'kustomization.yaml',
      'rollgen-status.yaml',
      'service-echoserver.yaml',
    ]);
    expect(deployment().spec.template.metadata.labels).toEqual({ app: 'echoserver' });

    const plan = spawnSync(BIN, ['plan', 'src'], { cwd: dir, encoding: 'utf8' }).stdout;
    expect(plan).toMatch(/rollout rollouts-demo: disabled \(spec\.disabled\): its Deployment rolls out as written/);
    const idle = advance(dir);
    expect(idle.stdout).toMatch(/nothing to advance: src\/rollouts-demo is disabled \(spec\.disabled\)/);

    setImage(dir, '2.54');
    expect(advance(dir).stdout).toMatch(/plain rolling update/);
    expect(deployment().spec.template.spec.containers[0].image).toMatch(/agnhost:2\.54$/);
    expect(fs.readdirSync(path.join(dir, 'out')).filter((f) => f.includes('canary'))).toEqual([]);
  });
});

test('rollgen pr proposes the plain update of a disabled rollout, and a person merges it', async () => {
  const w = new FlowWorld(['echo'], 'apps:\n  - source: apps/echo\n    output: deploy/echo\n');
  try {
    disable(path.join(w.repo, 'apps', 'echo', 'rollout.yaml'));
    commitAll(w.repo, 'disable the rollout', w.now);
    await w.pr();
    const first = w.openPr('rollgen/echo/update');
    expect(first.labels).toContain('rollgen:manual');
    expect(first.body).toMatch(/plain rolling update with no canary/);
    w.merge(first.number);
    expect((await w.pr()).stdout).toMatch(/^echo: up to date$/m);

    bumpImage(w.repo, 'echo', '2.54', w.now);
    await w.pr();
    const update = w.openPr('rollgen/echo/update');
    w.merge(update.number);
    const out = path.join(w.repo, 'deploy', 'echo');
    const d = parse(fs.readFileSync(path.join(out, 'deployment-echo.yaml'), 'utf8'));
    expect(d.spec.template.spec.containers[0].image).toMatch(/:2\.54$/);
    expect(fs.readdirSync(out).filter((f) => f.includes('canary'))).toEqual([]);
  } finally {
    fs.rmSync(w.repo, { recursive: true, force: true });
  }
});
