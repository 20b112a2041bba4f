import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * The package as users get it: `npm pack`, installed globally into a temporary prefix, run from
 * outside the checkout. Its dependencies come from the npm cache (`npm ci` filled it) or the
 * registry. Needs dist/ (npm test builds it first); --ignore-scripts so packing does not rebuild
 * dist/ under tests running alongside.
 */
const ROOT = path.join(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
let tmp: string;
let rollgen: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run npm run build');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-pack-'));
  const npm = (args: string[]) => execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
  npm(['pack', '--ignore-scripts', '--pack-destination', tmp]);
  const [tarball] = fs.readdirSync(tmp).filter((f) => f.endsWith('.tgz'));
  const prefix = path.join(tmp, 'prefix');
  npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', path.join(tmp, tarball)]);
  rollgen = path.join(prefix, 'bin', 'rollgen');
}, 180_000);
afterAll(() => tmp && fs.rmSync(tmp, { recursive: true, force: true }));

const run = (args: string[], cwd: string) => execFileSync(rollgen, args, { cwd, encoding: 'utf8' });

test('the installed rollgen prints the version of package.json', () => {
  expect(run(['--version'], tmp)).toBe(`${pkg.version}\n`);
});

test('the installed rollgen renders an example copied outside the checkout', () => {
  const app = path.join(tmp, 'echoserver');
  fs.cpSync(path.join(ROOT, 'examples', 'kruise-nginx', 'echoserver'), app, { recursive: true });
  const inCheckout = execFileSync(path.join(ROOT, 'bin', 'rollgen'), ['render', app, '--step', '1'], {
    encoding: 'utf8',
  });
  const installed = run(['render', 'echoserver', '--step', '1'], tmp);
  expect(installed).toContain('kind: Ingress');
  expect(installed).toBe(inCheckout);
});

test('the package ships the bundle and the bin, not the sources', () => {
  const files = fs.readdirSync(path.join(tmp, 'prefix', 'lib', 'node_modules', 'rollgen'), { recursive: true });
  expect(files).toEqual(
    expect.arrayContaining(['bin/rollgen', 'dist/cli.js', 'package.json', 'schemas/output/status.json']),
  );
  expect(files.filter((f) => String(f).startsWith('src'))).toEqual([]);
});
