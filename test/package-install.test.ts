import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * The package as users get it: `npm run tarball` (scripts/pack.mjs), installed globally into a
 * temporary prefix, run from outside the checkout. Its dependencies come from the npm cache (`npm ci`
 * filled it) or the registry. Needs dist/ (npm test builds it first; pack.mjs rebuilds only a stale
 * one). npm 11 warns on installing a package whose manifest has install-time scripts (`prepare`
 * included): the tarball's manifest has none, so installing prints no warning and runs nothing.
 */
const ROOT = path.join(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
let tmp: string;
let rollgen: string;
let tarball: string;
let installOutput: { stdout: string; stderr: string };

const npm = (args: string[], cwd: string) => {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
};

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run npm run build');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-pack-'));
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'pack.mjs'), '--destination', tmp], { stdio: 'pipe' });
  [tarball] = fs.readdirSync(tmp).filter((f) => f.endsWith('.tgz'));
  const prefix = path.join(tmp, 'prefix');
  const flags = ['--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'];
  installOutput = npm(['install', '-g', ...flags, path.join(tmp, tarball)], tmp);
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

test('installing the tarball prints no warning: its manifest has no scripts', () => {
  expect(`${installOutput.stdout}${installOutput.stderr}`).not.toMatch(/warn/i);
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', path.join(tmp, tarball), 'package/package.json'], { encoding: 'utf8' }),
  ) as Record<string, unknown>;
  expect(Object.keys(manifest)).not.toEqual(expect.arrayContaining(['scripts']));
  expect(manifest.dependencies).toEqual(
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).dependencies,
  );
});

test('npx runs the tarball with no warning', () => {
  const r = spawnSync('npx', ['--yes', '--prefer-offline', `./${tarball}`, '--version'], {
    cwd: tmp,
    encoding: 'utf8',
  });
  expect(r.stdout).toBe(`${pkg.version}\n`);
  expect(r.stderr).not.toMatch(/warn/i);
});

test('a plain npm pack in the checkout is refused, naming npm run tarball', () => {
  const r = spawnSync('npm', ['pack', '--dry-run'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain('npm run tarball');
});
