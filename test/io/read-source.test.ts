import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readAppSource } from '../../src/io/read-source';

/** An app directory is its kustomization's `resources:` when it has one (under any of its three names), else every YAML file in it. */
let tmp: string;
beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-read-source-'))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function app(files: Record<string, string>): string {
  const dir = path.join(tmp, 'app');
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const read = (dir: string) => readAppSource(dir, tmp).map((f) => f.path);

test('without a kustomization: every YAML file, in order, but rollgen.yaml and the status file', () => {
  const dir = app({ 'b.yaml': 'kind: B\n', 'a.yml': 'kind: A\n', 'rollgen.yaml': 'apps: []\n', 'notes.txt': 'x' });
  expect(read(dir)).toEqual(['app/a.yml', 'app/b.yaml']);
});

test.each(['kustomization.yaml', 'kustomization.yml', 'Kustomization'])('with %s: only its resources', (name) => {
  const dir = app({ [name]: 'resources:\n  - b.yaml\n', 'a.yaml': 'kind: A\n', 'b.yaml': 'kind: B\n' });
  expect(read(dir)).toEqual(['app/b.yaml']);
});
