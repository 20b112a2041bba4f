import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { writeOutputDirs } from '../../src/io/output-dir';

/** Every target of a write is checked before anything is visible: a directory where a file goes stops the write. */
let tmp: string;
beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-targets-'))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const write = (dir: string, names: readonly string[]) =>
  writeOutputDirs([{ dir, files: names.map((p) => ({ path: p, content: `${p}\n` })), remove: [] }]);

test('a directory where a file goes refuses the write, and the output is left as it was', async () => {
  const out = path.join(tmp, 'out');
  fs.mkdirSync(path.join(out, 'b.yaml'), { recursive: true });
  fs.writeFileSync(path.join(out, 'c.yaml'), 'old\n');
  await expect(write(out, ['a.yaml', 'b.yaml', 'c.yaml'])).rejects.toThrow(
    /is a directory where rollgen writes a file/,
  );
  expect(fs.readdirSync(out).sort()).toEqual(['b.yaml', 'c.yaml']);
  expect(fs.readFileSync(path.join(out, 'c.yaml'), 'utf8')).toBe('old\n');
});

test('files already there are replaced, new ones made, also in an output that does not exist yet', async () => {
  const out = path.join(tmp, 'out');
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'c.yaml'), 'old\n');
  await write(out, ['a.yaml', 'c.yaml']);
  expect(fs.readFileSync(path.join(out, 'c.yaml'), 'utf8')).toBe('c.yaml\n');
  const fresh = path.join(tmp, 'new', 'out');
  await write(fresh, ['a.yaml']);
  expect(fs.readdirSync(fresh)).toEqual(['a.yaml']);
});
