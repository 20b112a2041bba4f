import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { fleetRepo, lineOf } from '../helpers/fleet-repo';

/** rollgen.yaml `waves:` (docs/fleet.md): shown by plan, every mistake refused at its line at once. */
const WAVES_AT = (yaml: string) => yaml.slice(0, yaml.indexOf('\nwaves:') + 1);

describe('plan shows the waves of examples/fleet', () => {
  const dir = fleetRepo((y) => y.replace('onFailure: wave', 'steps: [1, 3]\n    onFailure: wave'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('each wave with its targets, steps and gates, in order', async () => {
    const r = await runCli(['plan'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const waves = r.stdout.slice(r.stdout.indexOf('WAVES'));
    expect(waves).toBe(
      [
        'WAVES (one commit per wave step, touching every moving target of the wave)',
        'wave 1 staging: web/staging',
        '  steps 1, 2, 3, each behind its own gate, then promote and clean-up; all targets together',
        '  on failure: the failing target aborts; later waves never start',
        '  next wave when: every target promoted, healthy and its analyses Successful',
        'wave 2 prod-eu: web/prod-eu',
        '  steps 1, 2, 3, each behind its own gate, then promote and clean-up; all targets together',
        '  on failure: the failing target aborts; later waves never start',
        '  next wave when: every target promoted, healthy and its analyses Successful, then a bake of 30m',
        'wave 3 prod-us: web/prod-us',
        '  steps 1, 3, each behind its own gate, then promote and clean-up; all targets together',
        '  on failure: the whole wave aborts; later waves never start',
        '  done when: every target promoted, healthy and its analyses Successful',
        '',
      ].join('\n'),
    );
  });

  test('plan --json carries the waves; planning one target shows only its wave', async () => {
    const json = JSON.parse((await runCli(['plan', '--json'], dir)).stdout);
    expect(
      json.waves.map((w: { name: string; targets: string[]; bakeSeconds: number }) => [
        w.name,
        w.targets,
        w.bakeSeconds,
      ]),
    ).toEqual([
      ['staging', ['web/staging'], 0],
      ['prod-eu', ['web/prod-eu'], 1800],
      ['prod-us', ['web/prod-us'], 0],
    ]);
    const one = await runCli(['plan', 'web', '--target', 'prod-eu'], dir);
    expect(one.stdout).toContain('wave 2 prod-eu: web/prod-eu');
    expect(one.stdout).not.toContain('wave 1');
  });

  test('glob and label selectors across several targets, and parallel', async () => {
    const two = fleetRepo(
      (y) =>
        WAVES_AT(y) +
        [
          'waves:',
          '  - name: first',
          '    select: {targets: ["web/staging"]}',
          '  - name: prod',
          '    select: {labels: {env: prod}}',
          '    parallel: 1',
          '',
        ].join('\n'),
    );
    const r = await runCli(['plan'], two);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'wave 2 prod: web/prod-eu, web/prod-us\n  steps 1, 2, 3, each behind its own gate, then promote and clean-up; 1 target(s) at a time',
    );
    fs.rmSync(two, { recursive: true, force: true });
  });
});

describe('refused at the rollgen.yaml line, all at once', () => {
  test('a target in two waves, a target in none, a wave selecting nothing, an unknown label, a step the rollout lacks', async () => {
    const dir = fleetRepo(
      (y) =>
        WAVES_AT(y) +
        [
          'waves:',
          '  - name: eu',
          '    select: {labels: {region: eu}}',
          '  - name: prod-eu',
          '    select: {targets: ["*-eu"]}',
          '  - name: ap',
          '    select: {targets: [prod-ap]}',
          '  - name: tier',
          '    select: {labels: {tier: gold}}',
          '  - name: eu',
          '    select: {targets: [web/staging]}',
          '    steps: [2, 7]',
          '',
        ].join('\n'),
    );
    const file = path.join(dir, 'rollgen.yaml');
    const r = await runCli(['validate'], dir);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    const waves = lineOf(file, 'waves:', 1);
    expect([...lines].sort()).toEqual(
      [
        `rollgen.yaml:${waves + 4}:13: target web/prod-eu is selected by wave eu and wave prod-eu; a target rolls out in one wave, so narrow one selector`,
        `rollgen.yaml:${waves + 6}:24: "prod-ap" matches no target; targets: web/staging, web/prod-eu, web/prod-us`,
        `rollgen.yaml:${waves + 6}:13: wave ap selects no target; targets: web/staging, web/prod-eu, web/prod-us`,
        `rollgen.yaml:${waves + 8}:13: wave tier selects no target; targets: web/staging, web/prod-eu, web/prod-us`,
        `rollgen.yaml:${waves + 8}:29: no target has the label "tier"; label keys: cluster, env, region`,
        `rollgen.yaml:${waves + 9}:11: wave "eu" is listed twice; give each wave its own name`,
        `rollgen.yaml:${waves + 10}:13: target web/staging is selected by wave eu and wave eu; a target rolls out in one wave, so narrow one selector`,
        `rollgen.yaml:${lineOf(file, '- name: prod-us')}:15: target web/prod-us is in no wave, so it would never roll out; select it in one of the waves`,
      ].sort(),
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a step number the rollout does not have', async () => {
    const dir = fleetRepo((y) => y.replace('onFailure: wave', 'steps: [1, 5]\n    onFailure: wave'));
    const r = await runCli(['plan'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `rollgen.yaml:${lineOf(path.join(dir, 'rollgen.yaml'), 'steps: [1, 5]')}:12: wave prod-us runs step 5, but app web-prod-us's rollout web has 3 steps; list steps it has\n`,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('waves in a repository whose apps list no targets', async () => {
    const dir = fleetRepo((y) =>
      y.replace(
        / {4}source: web\/overlays\/\{target\}[\s\S]*?waves:/,
        '    source: web/overlays/staging\n    output: clusters/{name}\nwaves:',
      ),
    );
    const r = await runCli(['plan'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('waves: select targets, but no app lists targets:');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
