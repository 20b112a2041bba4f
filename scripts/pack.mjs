// `npm run tarball`: the tarball users install, with a manifest that has no scripts. The checkout needs
// its `prepare` script (`npm ci` builds dist/ with it), but an installed package that carries one
// makes npm 11 warn on every install ("install scripts not yet covered by allowScripts") although the
// tarball already holds the bundle and runs nothing. So the package's files are packed as npm packs
// them, unpacked into a scratch directory, and packed again there with `scripts`,
// `devDependencies` and `overrides` removed: nothing in the checkout is edited, so an interrupted
// pack leaves it as it was. A plain `npm pack` or `npm publish` is refused by the `prepack` script
// (`--refuse`), which names this command.
//
// Usage: node scripts/pack.mjs [--destination DIR]   (default: the working directory)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { distIsCurrent } from './build-stamp.mjs';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
/** Fields of package.json that serve the checkout only. */
const CHECKOUT_ONLY = ['scripts', 'devDependencies', 'overrides'];

if (process.argv.includes('--refuse')) {
  process.stderr.write(
    'rollgen: pack with `npm run tarball` (a tarball that installs without running or asking for any script);\n' +
      'publish the tarball it makes: `npm publish ./rollgen-VERSION.tgz`.\n',
  );
  process.exit(1);
}

const npm = (args, cwd) =>
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, encoding: 'utf8', stdio: 'pipe' });

function destination() {
  const at = process.argv.indexOf('--destination');
  return resolve(at >= 0 ? process.argv[at + 1] : process.cwd());
}

/** The manifest as installed: the checkout's, less what only the checkout uses. */
function installedManifest(manifest) {
  const result = { ...manifest };
  for (const field of CHECKOUT_ONLY) delete result[field];
  return result;
}

function pack(dest) {
  if (!distIsCurrent(ROOT)) execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  const scratch = mkdtempSync(join(tmpdir(), 'rollgen-pack-'));
  try {
    npm(['pack', '--ignore-scripts', '--pack-destination', scratch], ROOT);
    const [first] = readdirSync(scratch).filter((f) => f.endsWith('.tgz'));
    execFileSync('tar', ['-xzf', join(scratch, first), '-C', scratch]);
    const manifestFile = join(scratch, 'package', 'package.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    writeFileSync(manifestFile, `${JSON.stringify(installedManifest(manifest), null, 2)}\n`);
    const out = npm(['pack', '--ignore-scripts', '--pack-destination', dest], join(scratch, 'package'));
    process.stdout.write(`${join(dest, out.trim().split('\n').pop())}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

pack(destination());
