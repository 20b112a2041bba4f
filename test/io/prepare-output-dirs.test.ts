import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DIR_MODE } from '../../src/io/fs-safe';
import { lockOutputs, prepareOutputDirs } from '../../src/io/output-lock';

/** Output directories made ahead of their locks (while a run loads its apps), and removed again when it stops first. */
let tmp: string;
beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-prepare-'))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const outputs = () => ['a', 'b', 'c'].map((n) => path.join(tmp, 'deploy', n));

test('makes every output directory with the fixed mode, and says which it made', async () => {
  fs.mkdirSync(path.join(tmp, 'deploy', 'b'), { recursive: true });
  const made = await prepareOutputDirs(outputs()).made;
  for (const d of outputs()) expect(fs.statSync(d).mode & 0o777).toBe(DIR_MODE);
  expect(made.get(path.join(tmp, 'deploy', 'b'))).toBeUndefined();
  expect(made.get(path.join(tmp, 'deploy', 'a'))).toBeDefined();
});

test('discard removes the directories it made while empty, their new shared parent last, and keeps the rest', async () => {
  const prepared = prepareOutputDirs(outputs());
  await prepared.made;
  fs.writeFileSync(path.join(tmp, 'deploy', 'c', 'kept.yaml'), 'x\n');
  await prepared.discard();
  expect(fs.readdirSync(path.join(tmp, 'deploy'))).toEqual(['c']);
  // Which sibling makes `new` is up to the thread pool; whichever it is, `new` goes once they are all gone.
  const again = prepareOutputDirs(Array.from({ length: 16 }, (_, i) => path.join(tmp, 'new', `app-${i}`)));
  await again.discard();
  expect(fs.readdirSync(tmp)).toEqual(['deploy']);
});

test('locks taken on prepared directories remove them on release while empty, as locks that made them do', async () => {
  const prepared = prepareOutputDirs(outputs());
  const lock = await lockOutputs(outputs(), { waitMs: 0, prepared });
  for (const d of outputs()) expect(fs.readdirSync(d)).toEqual(['.rollgen-lock']);
  await lock.release();
  expect(fs.readdirSync(tmp)).toEqual([]);
});

test('released together, the locks still remove a shared parent they made, whichever output made it', async () => {
  // Removed at once, each output found the parent still holding the others: it stayed (a flaky CLI test).
  for (let round = 0; round < 10; round++) {
    const dirs = Array.from({ length: 16 }, (_, i) => path.join(tmp, 'new', `app-${i}`));
    const lock = await lockOutputs(dirs, { waitMs: 0, prepared: prepareOutputDirs(dirs) });
    await lock.release();
    expect(fs.readdirSync(tmp)).toEqual([]);
  }
});

test('a directory that cannot be made is left to its lock, which reports why', async () => {
  fs.writeFileSync(path.join(tmp, 'deploy'), 'a file where the outputs go\n');
  const prepared = prepareOutputDirs(outputs());
  expect((await prepared.made).size).toBe(0);
  await expect(lockOutputs(outputs(), { waitMs: 0, prepared })).rejects.toThrow(/ENOTDIR|EEXIST/);
});
