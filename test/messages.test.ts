import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from './helpers/cli';
import { useAppDir } from './helpers/rollout-dir';

/** The exact words of advance/abort/promote/retry: what moved, from where to where, and when nothing did, why and what would help. */
const EXAMPLE = path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver');
const app = useAppDir('rollgen-messages-', EXAMPLE);
const R = 'src/rollouts-demo';

async function say(command: string, ...flags: string[]): Promise<string> {
  const r = await runCli([command, 'src', 'out', ...flags], app.dir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}
const canaryRevision = () =>
  (parse(app.read('rollgen-status.yaml')) as { rollouts: { canaryRevision: string }[] }).rollouts[0].canaryRevision;

async function progressing(): Promise<void> {
  await say('advance');
  await say('advance');
  app.setImage('2.54');
  await say('advance');
}

test('a step says where it came from and where it went', async () => {
  await progressing();
  expect(await say('advance')).toBe(`${R}: step 1 of 4 -> step 2 of 4\nwrote out\n`);
  expect(await say('promote')).toBe(`${R}: step 2 of 4 -> step 3 of 4 (promoted, gate skipped)\nwrote out\n`);
});

test('idle commands name the state and the command that would help', async () => {
  await say('advance');
  await say('advance');
  expect(await say('advance')).toBe(
    `nothing to advance: ${R} is healthy: the output runs the source; change the pod template in the source to start a rollout\n`,
  );
  app.setImage('2.54');
  await say('advance');
  expect(await say('retry')).toBe(
    `nothing to retry: ${R} is progressing at step 1 of 4; only an aborted rollout can be retried; ` +
      '`rollgen promote src out` moves on without the gate, `rollgen abort src out` stops it\n',
  );
  expect(await say('abort')).toBe(`${R}: abort -> aborted (all traffic to stable)\nwrote out\n`);
  const held = canaryRevision();
  const aborted = `${R} is aborted: revision ${held} is held back, all traffic on stable; \`rollgen retry src out\` restarts it at step 1, or change the source\n`;
  expect(await say('advance')).toBe(`nothing to advance: ${aborted}`);
  expect(await say('promote')).toBe(`nothing to promote: ${aborted}`);
  expect(await say('retry')).toBe(`${R}: retry -> step 1 of 4\nwrote out\n`);
  await say('promote', '--full');
  expect(await say('promote')).toBe(
    `nothing to promote: ${R} is promoting: the new version is becoming stable; \`rollgen advance src out\` finishes the promotion\n`,
  );
  expect(await say('abort')).toBe(
    `nothing to abort: ${R} is promoting: the new version is becoming stable; \`rollgen advance src out\` finishes the promotion\n`,
  );
});

test('apps of rollgen.yaml are named by their name in the hint', async () => {
  fs.writeFileSync(path.join(app.dir, 'rollgen.yaml'), 'apps:\n  - name: echo\n    source: src\n    output: out\n');
  await runCli(['advance'], app.dir);
  await runCli(['advance'], app.dir);
  expect((await runCli(['retry', 'echo'], app.dir)).stdout).toBe(
    'nothing to retry: echo/rollouts-demo is healthy: the output runs the source; change the pod template in the source to start a rollout\n',
  );
});

test('promote and retry never move a revision the source has left: nothing is written, advance restarts it', async () => {
  await progressing();
  app.setImage('2.55');
  const before = app.read('rollgen-status.yaml');
  const files = app.files().map((f) => app.read(f));
  expect(await say('promote', '--full')).toMatch(
    /^nothing to promote: .* and the source has a newer one; `rollgen advance src out` restarts it at step 1/,
  );
  expect(app.files().map((f) => app.read(f))).toEqual(files);
  expect(await say('abort')).toBe(`${R}: abort -> aborted (all traffic to stable)\nwrote out\n`);
  app.setImage('2.56');
  expect(await say('retry')).toMatch(
    /^nothing to retry: .*the source has a newer one; `rollgen advance src out` starts the new revision at step 1\n$/,
  );
  expect(await say('advance')).toBe(`${R}: start -> step 1 of 4\nwrote out\n`);
  expect(app.read('rollgen-status.yaml')).not.toBe(before);
});
