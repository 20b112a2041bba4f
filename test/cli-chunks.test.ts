/**
 * The built CLI is split so a command loads only what it uses (scripts/chunks.mjs, bin/load-bundle.js):
 * render pulls in no GitHub client, template engine, child_process or crypto and only the
 * validators of the kinds it reads; `rollgen pr` loads every chunk it needs and works.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo } from './helpers/git-repo';
import { BIN } from './helpers/rollout-dir';
import { FakeGitHub } from './github/fake-github-server';
import { seedFromCheckout } from './github/helpers';

const ROOT = join(__dirname, '..');

test('render loads only the validators of its kinds, each through the bundle (code cache): no vendor chunk, child_process or crypto', () => {
  const probe = `
    const { loadBundle } = require(${JSON.stringify(join(ROOT, 'bin', 'load-bundle.js'))});
    const before = new Set(process.moduleLoadList);
    const { cli, scripts } = loadBundle();
    const ctx = { cwd: ${JSON.stringify(ROOT)}, stdout: () => {}, stderr: (t) => process.stderr.write(t), readStdin: async () => [] };
    cli.main(['render', 'examples/kruise-nginx/echoserver', '--step', '2'], ctx).then((code) => {
      const builtins = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule '));
      // undefined: no cache was given; true: V8 refused it (another node, or a stale build).
      const caches = [...scripts].map(([file, s]) => [file.slice(${JSON.stringify(ROOT)}.length), s.cachedDataRejected]);
      process.stdout.write(JSON.stringify({ code, builtins, chunks: [...loadBundle.loaded()], caches }));
    });`;
  const r = JSON.parse(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' }));
  expect(r.code).toBe(0);
  expect(r.builtins.filter((m: string) => /child_process|crypto|net$|dgram/.test(m))).toEqual([]);
  expect(r.chunks).toEqual([
    './validators/kruise-rollout-v1alpha1.js',
    './validators/ingress-nginx-options.js',
    './k8s/apps-v1-Deployment.js',
    './k8s/networking-k8s-io-v1-Ingress.js',
    './k8s/v1-Service.js',
  ]);
  // The build wrote a V8 code cache for the bundle and each of these, and V8 took every one.
  expect(r.caches).toEqual(['cli.js', ...r.chunks.map((c: string) => c.slice(2))].map((f) => [`/dist/${f}`, false]));
});

test('rollgen pr through bin/rollgen loads the GitHub client and the PR templates from their chunks', async () => {
  const fake = await FakeGitHub.start();
  const repo = makeRepo(['echo'], 'apps:\n  - source: apps/*\n    output: deploy/{name}\n', new Date());
  try {
    seedFromCheckout(fake, repo);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: repo,
      GITHUB_TOKEN: fake.token,
      GITHUB_REPOSITORY: fake.repository,
      GITHUB_API_URL: fake.apiUrl,
    };
    const child = spawn(BIN, ['pr', '--dry-run'], { cwd: repo, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('would open a PR from rollgen/echo/adopt');
    expect(fake.log()).toEqual(['GET /pulls']);
  } finally {
    await fake.close();
    rmSync(repo, { recursive: true, force: true });
  }
});

test('the ELBv2 client of verify.aws is in the lazy AWS chunk beside CloudWatch, never in the bundle, and speaks the query protocol from there', async () => {
  const { FakeElbv2 } = await import('./helpers/fake-elbv2');
  const elb = await FakeElbv2.start();
  try {
    elb.stack = 'shop/web';
    const probe = `
      const sdk = require(${JSON.stringify(join(ROOT, 'dist', 'vendor', 'aws.js'))});
      const client = new sdk.ElasticLoadBalancingV2Client({ region: 'eu-west-1', endpoint: ${JSON.stringify(elb.url)},
        credentials: { accessKeyId: 'AKIDCHUNK', secretAccessKey: 'x' } });
      client.send(new sdk.DescribeLoadBalancersCommand({})).then((o) => process.stdout.write(JSON.stringify({
        names: o.LoadBalancers.map((l) => l.LoadBalancerName), cloudwatch: typeof sdk.CloudWatchClient })));`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', probe]);
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}`))));
    });
    expect(JSON.parse(out)).toEqual({ names: ['k8s-shop-web-0123456789', 'other'], cloudwatch: 'function' });
    expect(elb.calls).toEqual(['DescribeLoadBalancers']);
    const cli = readFileSync(join(ROOT, 'dist', 'cli.js'), 'latin1');
    expect(cli).not.toContain('elasticloadbalancing.amazonaws.com');
    expect(cli).toContain('require("./vendor/aws.js")');
  } finally {
    await elb.close();
  }
});
