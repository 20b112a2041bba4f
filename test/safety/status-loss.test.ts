import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli';
import { setImage } from '../helpers/rollout-dir';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver');
const STATUS = 'rollgen-status.yaml';

/** Every object file of out/ (not the status), by name. */
function objectFiles(dir: string): Record<string, string> {
  const out = path.join(dir, 'out');
  const files = fs.readdirSync(out).filter((f) => f !== STATUS);
  return Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(out, f), 'utf8')]));
}

const stableImage = (dir: string) =>
  parse(fs.readFileSync(path.join(dir, 'out', 'deployment-echoserver.yaml'), 'utf8')).spec.template.spec.containers[0]
    .image as string;

const readStatus = (dir: string) => parse(fs.readFileSync(path.join(dir, 'out', STATUS), 'utf8')).rollouts[0];
const sameFiles = (a: string, b: string) => JSON.stringify(objectFiles(a)) === JSON.stringify(objectFiles(b));

function copyOf(dir: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-loss-copy-'));
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

/** A lifecycle; `at` is called after each command with the state it left. */
async function lifecycle(dir: string, removal: string, at: (label: string) => Promise<void>): Promise<void> {
  const run = async (command: string, label: string) => {
    const r = await runCli([command, 'src', 'out', '--removal', removal], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    await at(label);
  };
  await run('advance', 'adopting');
  await run('advance', 'healthy');
  setImage(dir, '2.54');
  await at('healthy, source changed');
  for (const n of [1, 2, 3, 4]) await run('advance', `step ${n}`);
  await run('advance', 'promoting');
  await run('advance', 'cleaned up');
  if (removal === 'two-commits') await run('advance', 'drained');
  setImage(dir, '2.55');
  await run('advance', 'step 1 of 2.55');
  await run('promote', 'step 2 of 2.55');
  await run('abort', 'aborted');
  if (removal === 'two-commits') await run('advance', 'aborted, drained');
}

/**
 * With the status file deleted, `advance` either does exactly what it does with it, or refuses with
 * exit 2 saying how to restore the file. An aborted rollout cannot be told from a stable one by its
 * objects: then the canary restarts at step 1 on the stable version, never promoting at once.
 */
describe.each(['one-commit', 'two-commits'])('status file lost at every state (%s)', (removal) => {
  test('never a skipped canary', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-loss-'));
    fs.cpSync(EXAMPLE, path.join(dir, 'src'), { recursive: true });
    const outcomes: string[] = [];
    await lifecycle(dir, removal, async (label) => {
      const kept = copyOf(dir);
      const lost = copyOf(dir);
      fs.rmSync(path.join(lost, 'out', STATUS));
      const advance = ['advance', 'src', 'out', '--removal', removal];
      const stableBefore = stableImage(dir);
      // Two advances each, so a rebuilt state is also shown to go on as the recorded one.
      for (const round of [1, 2]) {
        const expected = await runCli(advance, kept);
        const got = await runCli(advance, lost);
        const where = `${label}, advance ${round}`;
        if (got.code === 2) {
          expect(got.stderr).toMatch(/rollgen-status\.yaml.*git checkout/);
          outcomes.push(`${where}: refused`);
          break;
        }
        expect([where, got.code]).toEqual([where, expected.code]);
        if (label.startsWith('aborted') && !sameFiles(lost, kept)) {
          expect([where, stableImage(lost)]).toEqual([where, stableBefore]);
          expect(readStatus(lost)).toMatchObject({ phase: 'Progressing', step: 1 });
          outcomes.push(`${where}: restarted at step 1`);
          break;
        }
        expect([where, objectFiles(lost)]).toEqual([where, objectFiles(kept)]);
        if (round === 1 && got.code === 0 && fs.existsSync(path.join(dir, 'out', STATUS)))
          expect(got.stderr).toMatch(/state rebuilt/);
        outcomes.push(`${where}: as recorded`);
      }
      fs.rmSync(kept, { recursive: true, force: true });
      fs.rmSync(lost, { recursive: true, force: true });
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(outcomes.filter((o) => o.endsWith('as recorded')).length).toBeGreaterThan(16);
  });
});

test('the status file is local config: kpt, Config Sync and kubectl apply -f skip it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-loss-'));
  fs.cpSync(EXAMPLE, path.join(dir, 'src'), { recursive: true });
  expect((await runCli(['advance', 'src', 'out'], dir)).code).toBe(0);
  const status = parse(fs.readFileSync(path.join(dir, 'out', STATUS), 'utf8'));
  expect(status.metadata.annotations).toEqual({ 'config.kubernetes.io/local-config': 'true' });
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a live canary whose state cannot be rebuilt is refused with exit 2 and how to restore the file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-loss-'));
  fs.cpSync(EXAMPLE, path.join(dir, 'src'), { recursive: true });
  for (const image of ['2.53', '2.53', '2.54', '2.54']) {
    setImage(dir, image);
    expect((await runCli(['advance', 'src', 'out'], dir)).code).toBe(0);
  }
  const before = objectFiles(dir);
  fs.rmSync(path.join(dir, 'out', STATUS));
  // The source changed more than the image since step 2 was rendered: no state renders the output.
  const deployment = path.join(dir, 'src', 'deployment.yaml');
  fs.writeFileSync(deployment, fs.readFileSync(deployment, 'utf8').replace(/replicas: \d+/, 'replicas: 7'));
  const r = await runCli(['advance', 'src', 'out'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^out\/rollgen-status\.yaml:1:1: the status file is missing and a canary is live \(echoserver-canary\)/,
  );
  expect(r.stderr).toContain('git checkout HEAD -- out/rollgen-status.yaml');
  expect(objectFiles(dir)).toEqual(before);
  expect((await runCli(['status', 'src', 'out'], dir)).code).toBe(2);
  fs.rmSync(dir, { recursive: true, force: true });
});
