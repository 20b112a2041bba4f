import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LOCK_FILE } from '../../src/io/output-lock';
import { STATUS_FILE } from '../../src/state/status';
import { runCli } from '../helpers/cli';

/**
 * A command reads an app's output once (loadRepo), and a command that writes it reads it under its
 * lock: what it read is what it replaces, so the read serves both the repo-wide allocations and the
 * app's own plan. The status file stands for the output: every read of the output reads it.
 */
const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver');
let dir: string;
let reads: { file: string; locked: boolean }[];

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-read-once-'));
  fs.cpSync(EXAMPLE, path.join(dir, 'src'), { recursive: true });
  expect((await runCli(['advance', 'src', 'out'], dir)).code).toBe(0); // a first deploy: the output exists
  reads = [];
  // The module object itself: every importer reads its functions from it at each call.
  const nodeFs = jest.requireActual<typeof fs>('fs');
  const original = nodeFs.readFileSync;
  jest.spyOn(nodeFs, 'readFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, options?: unknown) => {
    if (typeof file === 'string' && path.basename(file) === STATUS_FILE)
      reads.push({ file, locked: fs.existsSync(path.join(path.dirname(file), LOCK_FILE)) });
    return original(file, options as never);
  }) as typeof fs.readFileSync);
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

test.each([['advance'], ['abort'], ['promote']])('%s reads the output once, under its lock', async (command) => {
  const r = await runCli([command, 'src', 'out'], dir);
  expect(r.stderr).not.toContain('error');
  expect(reads).toEqual([{ file: path.join(dir, 'out', STATUS_FILE), locked: true }]);
});

test.each([
  [['render', 'src', 'out', '--step', '1']],
  [['plan', 'src', 'out']],
  [['validate', 'src', 'out']],
  [['simulate', 'src', 'out']],
])('%j reads the output once and takes no lock', async (args) => {
  const r = await runCli(args, dir);
  expect(r.code).toBe(0);
  expect(reads.map((x) => x.locked)).toEqual([false]);
});
