import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { makeAppDir, setImage } from './helpers/rollout-dir';

/**
 * Every message of advance, promote, abort, retry and status in every phase a rollout can stand in:
 * test/messages/<phase>/<command>.txt holds the exit status, stdout and stderr, one golden file per
 * cell. UPDATE_GOLDEN=1 rewrites them (check each diff is intended). Each phase is built once by the
 * commands users run, then copied for each command so every cell starts from the same state.
 */
const ROOT = path.join(__dirname, 'messages');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const EXAMPLE = path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver');
const COMMANDS = ['advance', 'promote', 'abort', 'retry', 'status'] as const;

type Setup = (dir: string) => Promise<void>;
const run = (dir: string, ...args: string[]) => runCli([...args, 'src', 'out'], dir);
const steps =
  (...list: (string[] | ((dir: string) => void))[]): Setup =>
  async (dir) => {
    for (const s of list) {
      if (typeof s === 'function') s(dir);
      else expect((await run(dir, ...s)).code).toBe(0);
    }
  };
const newImage = (tag: string) => (dir: string) => setImage(dir, tag);
const healthy = [['advance'], ['advance']];
const atStep1 = [...healthy, newImage('2.54'), ['advance']];
const pauseSpec = (dir: string) => {
  const f = path.join(dir, 'src', 'rollout.yaml');
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('    canary:\n', '    paused: true\n    canary:\n'));
};

/** Phase name -> how users get there. */
const PHASES: Readonly<Record<string, Setup>> = {
  'not-deployed': steps(),
  adopting: steps(['advance']),
  healthy: steps(...healthy),
  'healthy-new-source': steps(...healthy, newImage('2.54')),
  'paused-manual-step-1': steps(...atStep1),
  'paused-timed-step-2': steps(...atStep1, ['advance']),
  'progressing-new-source': steps(...atStep1, newImage('2.55')),
  'promoting-last-step': steps(...atStep1, ['promote'], ['promote'], ['promote'], ['promote']),
  'promoting-full': steps(...atStep1, ['promote', '--full']),
  aborted: steps(...atStep1, ['abort']),
  'aborted-new-source': steps(...atStep1, ['abort'], newImage('2.55')),
  draining: steps(...atStep1, ['abort', '--removal', 'two-commits']),
  held: steps(...atStep1, pauseSpec),
};

function check(file: string, actual: string): void {
  if (UPDATE) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing; run UPDATE_GOLDEN=1 npx jest test/messages-matrix.test.ts`);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

describe.each(Object.keys(PHASES))('phase %s', (phase) => {
  let base: string;
  beforeAll(async () => {
    base = makeAppDir('rollgen-matrix-', EXAMPLE);
    await PHASES[phase](base);
  });
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  test.each(COMMANDS)('%s says the state and the command that helps', async (command) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-cell-'));
    try {
      fs.cpSync(base, dir, { recursive: true });
      const r = await run(dir, command);
      const text = `$ rollgen ${command} src out\nexit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
      check(path.join(ROOT, phase, `${command}.txt`), text.split(dir).join('<dir>'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('the golden directory holds exactly the cells of the matrix (no stale files)', () => {
  const expected = Object.keys(PHASES).flatMap((p) => COMMANDS.map((c) => `${p}/${c}.txt`));
  const found = fs.readdirSync(ROOT).flatMap((p) => fs.readdirSync(path.join(ROOT, p)).map((f) => `${p}/${f}`));
  expect(found.sort()).toEqual(expected.sort());
});
