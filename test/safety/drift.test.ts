import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { useAppDir } from '../helpers/rollout-dir';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver');
const app = useAppDir('rollgen-drift-', EXAMPLE);

const run = (...args: string[]) => runCli(args, app.dir);
const edit = (file: string, from: RegExp, to: string) =>
  fs.writeFileSync(app.out(file), app.read(file).replace(from, to));

async function toStepOne(): Promise<void> {
  await run('advance', 'src', 'out');
  await run('advance', 'src', 'out');
  app.setImage('2.54');
  expect((await run('advance', 'src', 'out')).code).toBe(0);
}

test('a hand edit is reported by status and validate (file, field) and advance refuses it without --force', async () => {
  await toStepOne();
  expect((await run('status', 'src', 'out')).stdout).not.toMatch(/drift/);
  edit('deployment-echoserver.yaml', /replicas: 5/, 'replicas: 6');
  const expected = 'out/deployment-echoserver.yaml: changed by hand: spec.replicas: rendered 5, found 6';

  const status = await run('status', 'src', 'out');
  expect(status.stdout).toContain(`\nDrift:         ${expected}\n`);
  const validate = await run('validate', 'src', 'out');
  expect(validate.code).toBe(0);
  expect(validate.stderr).toMatch(
    /^out\/deployment-echoserver\.yaml:\d+:\d+: warning: drift: changed by hand: spec\.replicas: rendered 5, found 6; the next advance refuses to overwrite it without --force\n/,
  );

  const before = app.read('deployment-echoserver.yaml');
  const refused = await run('advance', 'src', 'out');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`  ${expected}\n`);
  expect(refused.stderr).toContain('rerun with --force to overwrite it');
  expect(app.read('deployment-echoserver.yaml')).toBe(before);
  expect(app.status()).toMatchObject({ step: 1 });

  const forced = await run('advance', 'src', 'out', '--force');
  expect(forced.code).toBe(0);
  expect(app.read('deployment-echoserver.yaml')).toMatch(/replicas: 5/);
  expect((await run('status', 'src', 'out')).stdout).not.toMatch(/drift/);
});

test('a deleted file and a file changed along with the source are reported too', async () => {
  await toStepOne();
  fs.rmSync(app.out('service-echoserver-canary.yaml'));
  edit('ingress-echoserver-canary.yaml', /canary-weight: "20"/, 'canary-weight: "50"');
  const status = await run('status', 'src', 'out');
  expect(status.stdout).toContain(
    '\nDrift:         out/ingress-echoserver-canary.yaml: changed by hand: metadata.annotations.nginx.ingress.kubernetes.io/canary-weight: rendered "20", found "50"\n',
  );
  expect(status.stdout).toContain(
    '\n               out/service-echoserver-canary.yaml: deleted by hand (rollgen wrote it)\n',
  );
  // abort would overwrite the edit too
  expect((await run('abort', 'src', 'out')).code).toBe(1);
});

test('a status file whose step was edited by hand is reported and refused: no step is skipped without --force', async () => {
  await toStepOne();
  const objects = () => app.read('deployment-echoserver-canary.yaml');
  const before = { status: app.read('rollgen-status.yaml'), canary: objects() };
  // A plausible bad merge-conflict fix: step 1 becomes the last step, whose next advance promotes.
  edit('rollgen-status.yaml', /step: 1\n/, 'step: 4\n');
  const expected = 'out/rollgen-status.yaml: its rollouts (step, phase or revisions) changed by hand';

  expect((await run('status', 'src', 'out')).stdout).toContain(`\nDrift:         ${expected}`);
  const refused = await run('advance', 'src', 'out');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`  ${expected}, which would skip or repeat steps;`);
  expect(objects()).toBe(before.canary);
  expect(app.read('rollgen-status.yaml')).not.toBe(before.status);

  // Restored from git (here: the copy), the rollout moves on one step, as if nothing happened.
  fs.writeFileSync(app.out('rollgen-status.yaml'), before.status);
  expect((await run('advance', 'src', 'out')).code).toBe(0);
  expect(app.status()).toMatchObject({ step: 2 });
});

test('a status file edited by hand and accepted with --force: the edited state is what advance moves from', async () => {
  await toStepOne();
  edit('rollgen-status.yaml', /step: 1\n/, 'step: 2\n');
  const forced = await run('advance', 'src', 'out', '--force');
  expect(forced.code).toBe(0);
  expect(app.status()).toMatchObject({ step: 3 });
  // Written again by rollgen: its digest matches, so nothing is reported any more.
  expect((await run('status', 'src', 'out')).stdout).not.toMatch(/Drift/);
});

test('an advance with nothing to do still tells the drift it leaves in place', async () => {
  await run('advance', 'src', 'out');
  await run('advance', 'src', 'out');
  fs.rmSync(app.out('service-echoserver.yaml'));
  const idle = await run('advance', 'src', 'out');
  expect(idle.code).toBe(0);
  expect(idle.stdout).toMatch(/^nothing to advance/);
  expect(idle.stderr).toBe(
    'out/service-echoserver.yaml:1:1: warning: drift: deleted by hand (rollgen wrote it); the next advance refuses to overwrite it without --force\n',
  );
});
