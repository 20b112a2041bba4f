import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from './helpers/cli';
import { useAppDir, validateOutputLater } from './helpers/rollout-dir';

const EXAMPLE = path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver');

const app = useAppDir('rollgen-life-', EXAMPLE);
const { out, read, status, files, setImage } = app;

/** advance/abort/... then prove the output builds with kustomize and validates against the Kubernetes schemas. */
async function step(command: string, ...flags: string[]): Promise<string> {
  const r = await runCli([command, 'src', 'out', ...flags], app.dir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  validateOutputLater(app.dir);
  return r.stdout;
}

test('first deploy, adoption, a full rollout, promotion and clean-up', async () => {
  // GIVEN a first deploy: pods get the track label, Services keep selecting without it.
  await step('advance');
  expect(status()).toMatchObject({ phase: 'Adopting', step: 0 });
  expect(parse(read('service-echoserver.yaml')).spec.selector).toEqual({ app: 'echoserver' });
  expect(parse(read('deployment-echoserver.yaml')).spec.template.metadata.labels['rollgen.dev/track']).toBe('stable');
  // THEN a second commit narrows the selector, and a third has nothing to do.
  await step('advance');
  expect(parse(read('service-echoserver.yaml')).spec.selector).toEqual({
    app: 'echoserver',
    'rollgen.dev/track': 'stable',
  });
  expect(await step('advance')).toMatch(/nothing to advance/);

  // WHEN the pod template changes, step 1 starts: canary pods and a 20% canary Ingress.
  setImage('2.54');
  await step('advance');
  expect(status()).toMatchObject({ phase: 'Progressing', step: 1 });
  expect(files()).toEqual([
    'deployment-echoserver-canary.yaml',
    'deployment-echoserver.yaml',
    'ingress-echoserver-canary.yaml',
    'ingress-echoserver.yaml',
    'kustomization.yaml',
    'rollgen-status.yaml',
    'service-echoserver-canary.yaml',
    'service-echoserver.yaml',
  ]);
  expect(
    parse(read('ingress-echoserver-canary.yaml')).metadata.annotations['nginx.ingress.kubernetes.io/canary-weight'],
  ).toBe('20');
  expect(parse(read('deployment-echoserver.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.53$/);
  expect(parse(read('deployment-echoserver-canary.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.54$/);

  for (const n of [2, 3, 4]) {
    await step('advance');
    expect(status()).toMatchObject({ phase: 'Progressing', step: n });
  }
  // Promote: stable gets the new template while traffic still flows as in the last step.
  await step('advance');
  expect(status().phase).toBe('Promoting');
  expect(parse(read('deployment-echoserver.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.54$/);
  expect(
    parse(read('ingress-echoserver-canary.yaml')).metadata.annotations['nginx.ingress.kubernetes.io/canary-weight'],
  ).toBe('100');
  // Clean-up: canary objects gone, routes to stable only.
  await step('advance');
  expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
  expect(files()).toEqual([
    'deployment-echoserver.yaml',
    'ingress-echoserver.yaml',
    'kustomization.yaml',
    'rollgen-status.yaml',
    'service-echoserver.yaml',
  ]);
  expect(parse(read('kustomization.yaml')).resources).toEqual([
    'deployment-echoserver.yaml',
    'ingress-echoserver.yaml',
    'service-echoserver.yaml',
  ]);
  expect(await step('advance')).toMatch(/nothing to advance/);
});

test('a new revision mid-rollout restarts at step 1 with the newest template', async () => {
  await step('advance');
  await step('advance');
  setImage('2.54');
  await step('advance');
  await step('advance');
  setImage('2.55');
  await step('advance');
  expect(status()).toMatchObject({ phase: 'Progressing', step: 1 });
  expect(parse(read('deployment-echoserver-canary.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.55$/);
  expect(parse(read('deployment-echoserver.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.53$/);
});

test('abort holds the app until retry; promote --full jumps to promotion', async () => {
  await step('advance');
  await step('advance');
  setImage('2.54');
  await step('advance');
  await step('abort');
  expect(status().phase).toBe('Aborted');
  expect(files()).not.toContain('ingress-echoserver-canary.yaml');
  expect(files()).not.toContain('deployment-echoserver-canary.yaml');
  expect(await step('advance')).toMatch(/nothing to advance/);
  await step('retry');
  expect(status()).toMatchObject({ phase: 'Progressing', step: 1 });
  await step('promote', '--full');
  expect(status().phase).toBe('Promoting');
  expect(
    parse(read('ingress-echoserver-canary.yaml')).metadata.annotations['nginx.ingress.kubernetes.io/canary-weight'],
  ).toBe('20');
});

test('user content in the output kustomization survives; a failed advance leaves the output byte-identical', async () => {
  await step('advance');
  fs.writeFileSync(path.join(out(), 'extra.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n');
  fs.writeFileSync(
    path.join(out(), 'kustomization.yaml'),
    read('kustomization.yaml').replace('resources:', '# team note\nnamespace: team-a\nresources:\n  - extra.yaml'),
  );
  await step('advance');
  const kustomization = read('kustomization.yaml');
  expect(kustomization).toContain('# team note');
  expect(parse(kustomization).namespace).toBe('team-a');
  expect(parse(kustomization).resources).toContain('extra.yaml');

  const before = files().map((f) => [f, read(f)]);
  fs.writeFileSync(path.join(app.dir, 'src', 'deployment.yaml'), 'kind: [broken');
  const r = await runCli(['advance', 'src', 'out'], app.dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^src\/deployment.yaml:\d+:\d+: invalid YAML/);
  expect(files().map((f) => [f, read(f)])).toEqual(before);
});

test('a newer revision while promoting: advance cleans up the promoted one, then starts the newer one against it', async () => {
  await step('advance');
  await step('advance');
  setImage('2.54');
  for (let n = 0; n < 5; n++) await step('advance');
  expect(status().phase).toBe('Promoting');
  setImage('2.55');
  // Was a dead end: "finish it (advance)" from the very advance that refused.
  expect(await step('advance')).toMatch(/clean up; revision \w+ starts at step 1 next/);
  expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
  expect(files()).not.toContain('deployment-echoserver-canary.yaml');
  expect(parse(read('deployment-echoserver.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.54$/);
  await step('advance');
  expect(status()).toMatchObject({ phase: 'Progressing', step: 1 });
  expect(parse(read('deployment-echoserver.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.54$/);
  expect(parse(read('deployment-echoserver-canary.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.55$/);
});
