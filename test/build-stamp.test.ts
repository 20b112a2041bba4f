import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * `npm test` skips its build when dist/ is the build of the current sources (scripts/build-stamp.mjs):
 * any change to what the build reads, or to what it wrote, must make it build again.
 */
const STAMP_MODULE = path.join(__dirname, '..', 'scripts', 'build-stamp.mjs');
let root: string;

/** Calls one export of the stamp module on `root` in a node of its own (the module is ESM). */
function stamp(fn: 'writeStamp' | 'distIsCurrent'): string {
  const code = `import(${JSON.stringify(STAMP_MODULE)}).then((m) => console.log(m.${fn}(process.argv[1])))`;
  return execFileSync(process.execPath, ['-e', code, root], { encoding: 'utf8' }).trim();
}

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-stamp-'));
  write('src/cli.ts', 'export const a = 1;\n');
  write('generators/x/index.ts', 'export const b = 2;\n');
  write('package-lock.json', '{}\n');
  write('test/a.test.ts', 'test("a", () => undefined);\n');
  write('dist/cli.js', 'module.exports = 1;\n');
  write('dist/cache/cli.cache', 'bytes');
  stamp('writeStamp');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('dist/ just stamped is current, and stays so when only files the build does not read change', () => {
  expect(stamp('distIsCurrent')).toBe('true');
  write('test/a.test.ts', 'test("b", () => undefined);\n');
  write('docs/new.md', '# new\n');
  expect(stamp('distIsCurrent')).toBe('true');
});

test.each([
  ['a source changed', () => write('src/cli.ts', 'export const a = 2;\n')],
  ['a source added (an import may now resolve to it)', () => write('src/cli/index.ts', '')],
  ['a source removed', () => fs.rmSync(path.join(root, 'generators', 'x', 'index.ts'))],
  ['the installed dependencies changed', () => write('package-lock.json', '{"lockfileVersion":3}\n')],
  ['esbuild settings changed', () => write('tsconfig.json', '{}\n')],
  ['a built file changed after the build', () => write('dist/cli.js', 'module.exports = 2;\n')],
  ['a built file was added after the build', () => write('dist/extra.js', '')],
  ['the stamp is missing', () => fs.rmSync(path.join(root, 'dist', '.build-stamp.json'))],
  ['the stamp is unreadable', () => write('dist/.build-stamp.json', '{')],
])('dist/ is not current when %s', (_, change) => {
  change();
  expect(stamp('distIsCurrent')).toBe('false');
});
