import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isNormalAbsolute, outputOverlaps, realPaths } from '../../src/io/confine';
import { outputResolver } from '../../src/io/config';

/**
 * The confinement checks of rollgen.yaml run for every app at every start, so they resolve each
 * directory once and find overlaps through ancestors (src/io/confine.ts). These tests hold the fast
 * forms to what the plain ones answer: fs.realpathSync for real paths, every pair for overlaps.
 */
let tmp: string;
beforeEach(() => (tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-confine-')))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The plain answer: the real path of the deepest existing ancestor, the rest appended. */
function plainRealPath(p: string): string {
  if (fs.existsSync(p)) return fs.realpathSync(p);
  const parent = path.dirname(p);
  return parent === p ? p : path.join(plainRealPath(parent), path.basename(p));
}

test('real paths through links, dangling links and paths not made yet match realpath, in any order of asking', () => {
  fs.mkdirSync(path.join(tmp, 'apps', 'a'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'apps', 'b'));
  fs.mkdirSync(path.join(tmp, 'elsewhere', 'c'), { recursive: true });
  fs.symlinkSync(path.join(tmp, 'elsewhere', 'c'), path.join(tmp, 'apps', 'link-c'));
  fs.symlinkSync(path.join(tmp, 'missing'), path.join(tmp, 'apps', 'dangling'));
  fs.symlinkSync(path.join(tmp, 'elsewhere'), path.join(tmp, 'via'));
  const asked = [
    'apps/a',
    'apps/b',
    'apps/link-c',
    'apps/dangling',
    'apps/link-c/deeper/not-made',
    'via/c',
    'via/c/x',
    'deploy/a',
    'deploy/b',
    'apps/a/../b',
    'apps//a/',
  ].map((p) => path.join(tmp, p));
  // Twice, forwards then backwards: the second question about a directory is answered from its listing.
  for (const order of [asked, [...asked].reverse()]) {
    const real = realPaths();
    for (const p of [...order, ...order]) expect([p, real(p)]).toEqual([p, plainRealPath(p)]);
  }
  expect(realPaths()(path.join(tmp, 'apps', 'link-c'))).toBe(path.join(tmp, 'elsewhere', 'c'));
});

/** The plain check: every output against every source. */
function pairwise(apps: { name: string; source: string; output?: string }[]): string[] {
  const within = (child: string, root: string) => child.startsWith(root.endsWith('/') ? root : root + '/');
  return apps.flatMap((a) =>
    a.output === undefined
      ? []
      : apps.flatMap((b) => {
          const [out, src] = [plainRealPath(a.output!), plainRealPath(b.source)];
          const whose = a === b ? 'its own source' : `the source of app ${b.name}`;
          if (out === src) return [`app ${a.name}: the output is ${whose}; write the output to its own directory`];
          if (within(out, src)) return [`app ${a.name}: the output is inside ${whose}; move it out`];
          if (within(src, out)) return [`app ${a.name}: the output contains ${whose}; move it out`];
          return [];
        }),
  );
}

test('overlaps found through ancestors are those of every pair, in the same order', () => {
  fs.mkdirSync(path.join(tmp, 'apps', 'a', 'nested'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'apps', 'b'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'real-out'), { recursive: true });
  fs.symlinkSync(path.join(tmp, 'apps', 'b'), path.join(tmp, 'out-link'));
  const at = (p: string) => path.join(tmp, p);
  const apps = [
    { name: 'a', source: at('apps/a'), output: at('deploy/a') },
    { name: 'inside', source: at('apps/x'), output: at('apps/a/nested/out') },
    { name: 'contains', source: at('apps/y'), output: at('apps') },
    { name: 'same', source: at('apps/b'), output: at('apps/b') },
    { name: 'linked', source: at('src/z'), output: at('out-link') },
    { name: 'clean', source: at('apps/c'), output: at('real-out/c') },
    { name: 'shared', source: at('templates') },
    { name: 'into-shared', source: at('apps/d'), output: at('templates/out') },
  ];
  const expected = pairwise(apps);
  expect(expected.length).toBeGreaterThan(6);
  expect(outputOverlaps(apps)).toEqual(expected);
  expect(outputOverlaps(apps.filter((a) => a.name === 'clean' || a.name === 'a'))).toEqual([]);
});

test("an entry's output per app name is path.resolve of the output with {name} filled in, for any output and name", () => {
  const outputs = [
    'deploy/{name}',
    'deploy/{name}/../x',
    './out/{name}-env',
    'a//{name}/',
    '{name}',
    'fixed',
    'x/{name}/{name}',
  ];
  const names = ['app', 'a.b', '.hidden', '..', '.', '', 'x/y', 'back\\slash', '$&', 'nul\u0000byte'];
  for (const written of outputs) {
    const outputOf = outputResolver(tmp, written);
    for (const name of names) expect(outputOf(name)).toBe(path.resolve(tmp, written.split('{name}').join(name)));
  }
});

test('a path is taken as normal exactly when path.resolve would return it unchanged', () => {
  const parts = ['', '.', '..', '...', '.work', '..x', 'a', 'a.', 'x y'];
  const paths = new Set<string>(['/', '//', 'relative', '']);
  for (const a of parts) for (const b of parts) for (const c of parts) paths.add(`/${a}/${b}/${c}`).add(`/${a}/${b}`);
  for (const p of [...paths]) paths.add(`${p}/`);
  for (const p of paths) expect([p, isNormalAbsolute(p)]).toEqual([p, path.isAbsolute(p) && path.resolve(p) === p]);
});
