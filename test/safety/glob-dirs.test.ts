/**
 * globDirs lists the common one-segment pattern (`apps/*`) itself instead of crawling with the glob
 * library: both ways must find the same directories for every pattern and tree.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { globDirs, walkedDirs } from '../../src/io/config-paths';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-glob-'));
  const dir = (p: string) => fs.mkdirSync(path.join(root, p), { recursive: true });
  const file = (p: string) => fs.writeFileSync(path.join(root, p), 'x: 1\n');
  for (const d of [
    'apps/a',
    'apps/app-1',
    'apps/app-2/nested',
    'apps/B',
    'apps/.hidden',
    'apps/x y',
    'apps/ünï',
    'other/b',
  ])
    dir(d);
  for (const f of ['apps/file.yaml', 'apps/app-file', 'top.yaml']) file(f);
  fs.symlinkSync(path.join(root, 'other/b'), path.join(root, 'apps/app-link')); // a link to a directory
  fs.symlinkSync(path.join(root, 'apps/file.yaml'), path.join(root, 'apps/app-filelink')); // to a file
  fs.symlinkSync(path.join(root, 'missing'), path.join(root, 'apps/app-dangling'));
  fs.symlinkSync(os.tmpdir(), path.join(root, 'apps/app-outside')); // kept, and refused by confinement
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test.each([
  'apps/*',
  'apps/app-*',
  'apps/*-1',
  'apps/?pp-*',
  'apps/[ab]*',
  'apps/{a,app-1}',
  'apps/@(a|B)',
  'apps/!(a)',
  'apps/x*',
  'apps/ü*',
  '*',
  'missing/*',
  'top.yaml/*',
])('%s: the one-level listing finds what the glob library finds', (pattern) => {
  const fast = globDirs(root, pattern);
  expect(fast).toEqual(walkedDirs(root, pattern));
  for (const d of fast) expect(path.isAbsolute(d) && path.resolve(d) === d).toBe(true);
});

test('hidden directories are skipped by every pattern, as the README says; a hidden base is still walked', () => {
  expect(walkedDirs(root, 'apps/!(a)').map((d) => path.basename(d))).not.toContain('.hidden');
  expect(walkedDirs(root, 'apps/**').map((d) => path.basename(d))).not.toContain('.hidden');
  fs.mkdirSync(path.join(root, '.deploy', 'one'), { recursive: true });
  expect(globDirs(root, '.deploy/*')).toEqual([path.join(root, '.deploy', 'one')]);
  expect(walkedDirs(root, '.deploy/*')).toEqual([path.join(root, '.deploy', 'one')]);
});

test('the listing is what the tree holds: directories and links to directories, not hidden ones or files', () => {
  expect(globDirs(root, 'apps/*').map((d) => path.relative(root, d))).toEqual(
    [
      'apps/B',
      'apps/a',
      'apps/app-1',
      'apps/app-2',
      'apps/app-link',
      'apps/app-outside',
      'apps/x y',
      'apps/ünï',
    ].sort(),
  );
});
