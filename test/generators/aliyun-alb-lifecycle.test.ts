import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { BIN, rollgenClean, useAppDir, validateOutput } from '../helpers/rollout-dir';

/** A whole aliyun-alb rollout through the CLI: every output builds with kustomize and validates. */
const SOURCE = path.join(__dirname, '..', 'golden', 'aliyun-alb', 'header-weight', 'source');
const PREFIX = 'alb.ingress.kubernetes.io';

const app = useAppDir('rollgen-alb-life-', SOURCE);
const { out, status } = app;
const canaryFiles = (): string[] =>
  fs
    .readdirSync(out())
    .filter((f) => /^ingress-.*canary/.test(f))
    .sort();
const annotations = (file: string): Record<string, string> =>
  parse(fs.readFileSync(out(file), 'utf8')).metadata.annotations;

async function advance(): Promise<string> {
  const stdout = await rollgenClean(app.dir, ['advance', 'src', 'out']);
  const checked = validateOutput(app.dir);
  if (checked) expect(checked.length).toBeGreaterThan(0);
  return stdout;
}

test('first deploy, every step, promote and clean-up: canary Ingresses, orders and the untouched stable Ingress', async () => {
  await advance();
  await advance();
  expect(await advance()).toMatch(/nothing to advance/);
  const stableIngress = fs.readFileSync(out('ingress-echoserver.yaml'), 'utf8');
  expect(canaryFiles()).toEqual([]);

  app.setImage('2.54');
  // step 1: header only, in <ing>-canary
  await advance();
  expect(status()).toMatchObject({ phase: 'Progressing', step: 1 });
  expect(canaryFiles()).toEqual(['ingress-echoserver-canary.yaml']);
  expect(annotations('ingress-echoserver-canary.yaml')).toMatchObject({
    [`${PREFIX}/canary-by-header`]: 'x-canary',
    [`${PREFIX}/order`]: '9',
  });
  // step 2: header + 30%: the header rule moves to <ing>-canary-header, ordered first
  await advance();
  expect(canaryFiles()).toEqual(['ingress-echoserver-canary-header.yaml', 'ingress-echoserver-canary.yaml']);
  expect(annotations('ingress-echoserver-canary-header.yaml')).toMatchObject({
    [`${PREFIX}/canary-by-header-value`]: 'on',
    [`${PREFIX}/order`]: '8',
  });
  expect(annotations('ingress-echoserver-canary.yaml')[`${PREFIX}/canary-by-header`]).toBeUndefined();
  expect(annotations('ingress-echoserver-canary.yaml')).toMatchObject({
    [`${PREFIX}/canary-weight`]: '30',
    [`${PREFIX}/order`]: '9',
  });
  // steps 3 and 4: weight only; the order of <ing>-canary never moves
  for (const [step, weight] of [
    [3, '60'],
    [4, '100'],
  ] as const) {
    await advance();
    expect(status()).toMatchObject({ phase: 'Progressing', step });
    expect(canaryFiles()).toEqual(['ingress-echoserver-canary.yaml']);
    expect(annotations('ingress-echoserver-canary.yaml')).toMatchObject({
      [`${PREFIX}/canary-weight`]: weight,
      [`${PREFIX}/order`]: '9',
    });
  }
  await advance();
  expect(status().phase).toBe('Promoting');
  expect(annotations('ingress-echoserver-canary.yaml')[`${PREFIX}/canary-weight`]).toBe('100');
  await advance();
  expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
  expect(canaryFiles()).toEqual([]);
  expect(
    parse(fs.readFileSync(out('kustomization.yaml'), 'utf8')).resources.filter((r: string) => r.startsWith('ingress-')),
  ).toEqual(['ingress-echoserver.yaml']);
  expect(fs.readFileSync(out('ingress-echoserver.yaml'), 'utf8')).toBe(stableIngress);
});

test('abort mid-rollout removes both canary Ingresses', async () => {
  await advance();
  await advance();
  app.setImage('2.54');
  await advance();
  await advance();
  expect(canaryFiles()).toHaveLength(2);
  const r = spawnSync(BIN, ['abort', 'src', 'out'], { cwd: app.dir, encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(canaryFiles()).toEqual([]);
  validateOutput(app.dir);
});
