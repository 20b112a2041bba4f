// Whether dist/ is the build of the sources as they are now, so `npm test` can skip a second build
// after `npm ci` (whose prepare script built it). The build writes a stamp: a digest of every file
// it may read and a digest of what it wrote. dist/ is current when both still match: the inputs did
// not change since, and nothing rewrote dist/ after (a build from other sources, a manual edit).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the build reads: sources (src, generators), the scripts that build and warm the code cache
 * (scripts, bin, and the examples it renders), TypeScript settings esbuild honours, and the installed
 * dependencies (the lockfile, and npm's record of what node_modules holds). A directory covers every
 * file under it, so a file added where an import may resolve counts too.
 */
const INPUTS = [
  'src',
  'generators',
  'scripts',
  'bin',
  'examples',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
];
export const STAMP = '.build-stamp.json';

/** One digest of the files at `paths` under `root` (a directory: every file under it), with their names. */
function digestOf(root, paths, skip = () => false) {
  const hash = createHash('sha256');
  const add = (rel) => {
    const full = join(root, rel);
    if (skip(rel)) return;
    if (!existsSync(full)) hash.update(`${rel}\0absent\0`);
    else if (statSync(full).isDirectory())
      for (const name of readdirSync(full).sort()) add(rel === '' ? name : `${rel}/${name}`);
    else hash.update(`${rel}\0`).update(readFileSync(full)).update('\0');
  };
  paths.forEach(add);
  return hash.digest('hex');
}

/** Digests of the build's inputs under `root` (with the Node version the code cache is for) and of `root`/dist. */
export function buildDigests(root) {
  const inputs = createHash('sha256')
    .update(`${process.version} ${process.arch}\0`)
    .update(digestOf(root, INPUTS))
    .digest('hex');
  const dist = digestOf(join(root, 'dist'), [''], (rel) => rel === STAMP);
  return { inputs, dist };
}

/** Called by scripts/build.mjs last, after everything it writes. */
export function writeStamp(root) {
  writeFileSync(join(root, 'dist', STAMP), `${JSON.stringify(buildDigests(root), null, 2)}\n`);
}

/** True when `root`/dist is the build of the current inputs; false when unsure (no stamp, any change). */
export function distIsCurrent(root) {
  const file = join(root, 'dist', STAMP);
  if (!existsSync(file)) return false;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  const now = buildDigests(root);
  return stamp.inputs === now.inputs && stamp.dist === now.dist;
}
