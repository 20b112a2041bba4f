import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { KubeObject } from '../src/model/kube';
import { podsOf } from '../src/simulate/simulate';
import { runCli } from './helpers/cli';
import { makeAppDir } from './helpers/rollout-dir';

/** What a user wrote is honoured, warned about or refused, as bin/rollgen shows it (issue 11). */
const CORE = path.join(__dirname, 'golden', 'core');

const objects = (yaml: string): KubeObject[] => parseAllDocuments(yaml).map((d) => d.toJS() as KubeObject);

test('a non-Deployment workload is refused with one message, not a second "not among the manifests"', async () => {
  const r = await runCli(['validate', 'source'], path.join(CORE, 'kruise-cloneset'));
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('workloadRef.kind CloneSet is not supported')]);
});

test('Kruise spec.disabled: the Deployment is rendered as written, with no canary at any step', async () => {
  const dir = path.join(CORE, 'kruise-disabled');
  const r = await runCli(['render', 'source'], dir);
  expect(r.code).toBe(0);
  const [deployment] = objects(r.stdout);
  const source = objects(fs.readFileSync(path.join(dir, 'source', 'rollout.yaml'), 'utf8'))[1];
  expect(deployment).toEqual(source);
});

test('Argo basic canary: stableService and canaryService each select only their own pods at every step', async () => {
  const dir = path.join(CORE, 'argo-basic-canary');
  for (const step of [1, 2, 3]) {
    const rendered = objects((await runCli(['render', 'source', '--step', String(step)], dir)).stdout);
    expect(podsOf(rendered, 'web', 1).map((p) => p.deployment)).toEqual(['web']);
    expect(podsOf(rendered, 'web-preview', 1).map((p) => p.deployment)).toEqual(['web-canary']);
  }
});

test('Argo spec.paused: advance says the rollout holds and writes nothing more for it', async () => {
  const dir = makeAppDir('rollgen-paused-', path.join(CORE, 'argo-basic-canary', 'source'));
  try {
    expect((await runCli(['advance', 'src', 'out'], dir)).code).toBe(0);
    const file = path.join(dir, 'src', 'rollout.yaml');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('  replicas: 10\n', '  replicas: 10\n  paused: true\n'),
    );
    const before = fs.readFileSync(path.join(dir, 'out', 'rollgen-status.yaml'), 'utf8');
    const r = await runCli(['advance', 'src', 'out'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('src/web: paused by spec.paused; nothing is proposed for it until that is false');
    expect(r.stdout).toContain('nothing to advance: src/web is held: paused by spec.paused');
    expect(r.stdout).not.toContain('is healthy');
    expect(fs.readFileSync(path.join(dir, 'out', 'rollgen-status.yaml'), 'utf8')).toBe(before);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an Argo canary with no steps goes straight to promotion, then cleans up', async () => {
  const dir = makeAppDir('rollgen-nosteps-', path.join(__dirname, '..', 'examples', 'argo-nginx', 'echoserver'));
  try {
    const rollout = path.join(dir, 'src', 'rollout.yaml');
    const text = fs.readFileSync(rollout, 'utf8');
    // steps is the last field of the example: replace it with an empty list (an analysis-only list plans a step: test/argo-parity).
    const steps = '      steps: []\n';
    fs.writeFileSync(rollout, text.slice(0, text.indexOf('      steps:\n')) + steps);
    const advance = () => runCli(['advance', 'src', 'out'], dir);
    expect((await advance()).code).toBe(0);
    expect((await advance()).code).toBe(0);
    const deployment = path.join(dir, 'src', 'deployment.yaml');
    fs.writeFileSync(deployment, fs.readFileSync(deployment, 'utf8').replace(/image: (\S+?):\S+/, 'image: $1:next'));
    const plan = (await runCli(['plan', 'src'], dir)).stdout;
    expect(plan).toMatch(/^promote +0 +\d+ +0% .*automatic$/m);
    expect(plan).toContain('no steps: a new version goes straight to promotion');
    const promote = await advance();
    expect(promote.stdout).toMatch(/promote \(no steps\) -> promoting \(no canary steps: the stable Deployment rolls/);
    const out = fs.readdirSync(path.join(dir, 'out'));
    expect(out.filter((f) => f.includes('canary'))).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'out', 'deployment-echoserver.yaml'), 'utf8')).toContain(':next');
    expect((await advance()).stdout).toMatch(/clean up -> stable/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('name limits by kind', () => {
  /** The kruise-disabled case's Deployment, renamed, under a Kruise rollout with an nginx routing and a Service. */
  async function validateWith(deployment: string, service: string): Promise<string> {
    const dir = makeAppDir('rollgen-names-', path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver'));
    try {
      for (const f of fs.readdirSync(path.join(dir, 'src'))) {
        const file = path.join(dir, 'src', f);
        const text = fs.readFileSync(file, 'utf8');
        fs.writeFileSync(
          file,
          text
            // The Deployment's name only: a container name is a DNS label of at most 63 (checked on its own).
            .replace(/^ {2}name: echoserver$/gm, (m) => (f === 'deployment.yaml' ? `  name: ${deployment}` : m))
            .replace(/(kind: Deployment\n\s+name:) echoserver/, `$1 ${deployment}`)
            .replace(/service: echoserver/g, `service: ${service}`)
            .replace(/(kind: Service\nmetadata:\n\s+name:) echoserver/, `$1 ${service}`),
        );
      }
      return (await runCli(['validate', 'src'], dir)).stderr;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test('a Deployment name longer than 63 characters is fine (a DNS subdomain); a Service name over 56 is not', async () => {
    const long = 'a'.repeat(100);
    expect(await validateWith(long, 'echoserver')).toBe('');
    expect(await validateWith('echoserver', 'b'.repeat(57))).toMatch(
      /Service name "b{57}" must be a DNS-1123 label of at most 56 characters/,
    );
  });
});

describe('Argo scaleDownDelaySeconds and abortScaleDownDelaySeconds', () => {
  /** The argo-nginx example with `fields` added to its canary strategy; returns plan's stdout and stderr. */
  async function planWith(fields: string, drop = ''): Promise<{ stdout: string; stderr: string }> {
    const dir = makeAppDir('rollgen-delay-', path.join(__dirname, '..', 'examples', 'argo-nginx', 'echoserver'));
    try {
      const file = path.join(dir, 'src', 'rollout.yaml');
      const text = fs.readFileSync(file, 'utf8').replace('    canary:\n', `    canary:\n${fields}`);
      fs.writeFileSync(file, drop ? text.replace(drop, '') : text);
      const r = await runCli(['plan', 'src'], dir);
      return { stdout: r.stdout, stderr: r.stderr };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test('they time the commit that removes drained canary workloads (0 after an abort: a person merges it)', async () => {
    const r = await planWith('      scaleDownDelaySeconds: 90\n      abortScaleDownDelaySeconds: 0\n');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('that commit waits (after promotion: after 90s; after an abort: manual)');
  });

  test('as in Argo, scaleDownDelaySeconds needs trafficRouting and excludes dynamicStableScale', async () => {
    const basic = await planWith(
      '      scaleDownDelaySeconds: 90\n',
      / {6}trafficRouting:\n( {8}.*\n)+?(?= {6}steps:)/.exec(
        fs.readFileSync(path.join(__dirname, '..', 'examples', 'argo-nginx', 'echoserver', 'rollout.yaml'), 'utf8'),
      )![0],
    );
    expect(basic.stderr).toMatch(/rollout\.yaml:\d+:\d+: scaleDownDelaySeconds needs trafficRouting/);
    const dynamic = await planWith('      scaleDownDelaySeconds: 90\n      dynamicStableScale: true\n');
    expect(dynamic.stderr).toMatch(/dynamicStableScale cannot be used with scaleDownDelaySeconds/);
  });
});
