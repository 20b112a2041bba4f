import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { fleetRepo, lineOf } from '../helpers/fleet-repo';
import { loadAppFrom } from '../helpers/golden-app';
import { expectNoDeadBackends, lifecycleTransitions } from '../helpers/transitions';

/**
 * Fleet targets (docs/fleet.md): one app of rollgen.yaml with a kustomize overlay per cluster, each
 * target planned, rendered and written like an app of its own, built by real kustomize.
 */
const TARGETS = ['staging', 'prod-eu', 'prod-us'];

/** rollgen.yaml up to its `waves:`, so entries can be appended to the apps. */
const withoutWaves = (yaml: string) => yaml.slice(0, yaml.indexOf('\nwaves:') + 1);

describe('targets of examples/fleet', () => {
  const dir = fleetRepo();
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('plan --target plans one target from its own overlay (its replicas)', async () => {
    const replicas: Record<string, number> = { staging: 2, 'prod-eu': 6, 'prod-us': 8 };
    for (const t of TARGETS) {
      const r = await runCli(['plan', 'web', '--target', t], dir);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(`app web-${t}, rollout web (kruise-v1alpha1, canary, ${replicas[t]} replicas`);
    }
  });

  test('naming the app plans every target; --json carries the target', async () => {
    const r = await runCli(['plan', 'web', '--json'], dir);
    expect(r.code).toBe(0);
    const apps = JSON.parse(r.stdout).apps as { app: string; target: { name: string; cluster: string } }[];
    expect(apps.map((a) => [a.app, a.target.name, a.target.cluster])).toEqual(TARGETS.map((t) => [`web-${t}`, t, t]));
  });

  test('render --target renders the overlay of that target', async () => {
    const staging = await runCli(['render', 'web', '--target', 'staging', '--step', '1'], dir);
    expect(staging.code).toBe(0);
    expect(staging.stdout).toContain('host: staging.web.example.com');
    const us = await runCli(['render', 'web', '--target', 'prod-us', '--step', '1'], dir);
    expect(us.stdout).toContain('host: web.example.com');
    expect(us.stdout).not.toContain('staging.web.example.com');
  });

  test('simulate --target answers for one target, and says to pick one when the app has several', async () => {
    const r = await runCli(['simulate', 'web', '--target', 'prod-eu', '--step', '1', '--json'], dir);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.target).toEqual({
      app: 'web',
      name: 'prod-eu',
      cluster: 'prod-eu',
      labels: { env: 'prod', region: 'eu', cluster: 'prod-eu' },
    });
    const shares = doc.pods.map((p: { share: number }) => p.share);
    expect(shares[0]).toBeCloseTo(0.8, 9);
    expect(shares[1]).toBeCloseTo(0.2, 9);
    const all = await runCli(['simulate', 'web', '--step', '1'], dir);
    expect(all.code).toBe(2);
    expect(all.stderr).toContain('app web has targets staging, prod-eu, prod-us: pick one with --target');
  });

  test('an unknown --target is refused with the targets there are', async () => {
    const r = await runCli(['plan', 'web', '--target', 'prod-ap'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('app web has no target "prod-ap"');
    expect(r.stderr).toContain('its targets: staging, prod-eu, prod-us');
  });

  test('advance --target writes that target output only', async () => {
    const r = await runCli(['advance', 'web', '--target', 'staging'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(dir, 'clusters', 'staging', 'web', 'kustomization.yaml'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'clusters', 'prod-eu'))).toBe(false);
  });

  test('the same host in two clusters is no conflict (validate passes)', async () => {
    const r = await runCli(['validate'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  test('every adjacent pair of states of every target leaves no request without ready pods', () => {
    for (const t of TARGETS) {
      const app = loadAppFrom(`web-${t}`, path.join(dir, 'web', 'overlays', t), dir);
      const host = t === 'staging' ? 'staging.web.example.com' : 'web.example.com';
      const req = { host, path: '/', headers: {}, cookies: {}, query: {} };
      expectNoDeadBackends(app, lifecycleTransitions(app.rollouts[0].plan.steps.length), [req]);
    }
  });
});

describe('cross-app rules per cluster', () => {
  test('two targets naming one cluster cannot share an nginx host', async () => {
    const dir = fleetRepo((y) => y.replace('region: us}', 'region: us, cluster: prod-eu}'));
    const r = await runCli(['validate'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('app web-prod-us, rollout web and app web-prod-eu, rollout web');
    expect(r.stderr).toContain('both need a canary for canary Ingress "web-canary" for host web.example.com');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('a build: command per target', () => {
  test('{target} in build: builds each overlay from one source directory', async () => {
    const dir = fleetRepo((y) =>
      y
        .replace('source: web/overlays/{target}', 'source: web\n    build: kubectl kustomize web/overlays/{target}')
        .replace('output: clusters/{target}/{name}', 'output: out/{name}-{target}'),
    );
    const r = await runCli(['render', 'web', '--target', 'staging', '--step', '1'], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('host: staging.web.example.com');
    const plan = await runCli(['plan', 'web', '--target', 'prod-us'], dir);
    expect(plan.stdout).toContain('8 replicas');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('refused at the rollgen.yaml line, all at once, nothing written', () => {
  test('{target} without targets, two targets on one output, a target twice, a missing overlay', async () => {
    const dir = fleetRepo(
      (y) =>
        withoutWaves(y).replace('output: clusters/{target}/{name}', 'output: clusters/{name}') +
        [
          '      - name: staging',
          '      - name: prod-ap',
          '  - name: api',
          '    source: web/overlays/staging',
          '    output: api/{target}',
          '',
        ].join('\n'),
    );
    const file = path.join(dir, 'rollgen.yaml');
    const r = await runCli(['advance'], dir);
    expect(r.code).toBe(2);
    const at = (line: number) => `rollgen.yaml:${line}:`;
    const output = lineOf(file, 'output: clusters/{name}');
    expect(r.stderr).toContain(`${at(output)}13: targets staging and prod-eu of app web both write to clusters/web`);
    expect(r.stderr).toContain(
      `${at(lineOf(file, '- name: staging', 9))}15: target "staging" is listed twice in app web`,
    );
    expect(r.stderr).toContain(
      `${at(lineOf(file, '- name: prod-ap'))}15: target prod-ap: source "web/overlays/prod-ap" is not a directory`,
    );
    expect(r.stderr).toContain(
      `${at(lineOf(file, 'output: api/{target}'))}13: {target} in "api/{target}", but this app has no targets:`,
    );
    expect(fs.existsSync(path.join(dir, 'clusters'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a source with {target} needs name:', async () => {
    const dir = fleetRepo((y) => y.replace('  - name: web\n    source', '  - source'));
    const r = await runCli(['plan'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'rollgen.yaml:3:13: source "web/overlays/{target}" varies per target, so it cannot name the app; set name: on the entry',
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
