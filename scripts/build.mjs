// Bundles the CLI for a fast start: dist/cli.js holds what every command needs; what only some runs
// need is a separate file required on first use (see scripts/chunks.mjs). The Action bundle
// (scripts/build-action.mjs) stays one file.
import { build } from 'esbuild';
import { BUNDLE_OPTIONS, YAML_AS_ESM, chunkEntries, chunksPlugin, lazyBuiltinsPlugin } from './chunks.mjs';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const common = BUNDLE_OPTIONS;

/**
 * esbuild turns each `import ... from 'fs'` (and from any CommonJS module) into its own
 * `__toESM(require(...))`, a copy of every export as a getter: 27 copies of path, 16 of fs and 6 of
 * yaml cost 4 ms at every start. `__esmNs` makes one copy per module and shares it; the copies are
 * read-only views, so sharing them changes nothing else. The call sites are renamed after the build
 * (same length, so the source map's columns still hold). The banner restates "use strict": it
 * must stay the first statement of the bundle.
 */
const ESM_NAMESPACE_ONCE = `"use strict";
var __esmNsSeen = [new WeakMap(), new WeakMap()];
function __esmNs(mod, isNodeMode) {
  if (mod === null || (typeof mod !== 'object' && typeof mod !== 'function')) return __toESM(mod, isNodeMode);
  const seen = __esmNsSeen[isNodeMode ? 1 : 0];
  let ns = seen.get(mod);
  if (!ns) seen.set(mod, (ns = __toESM(mod, isNodeMode)));
  return ns;
}`;

/** bin/load-bundle.js reads the bundle and its chunks as latin1 (no UTF-8 decoding at start): they must be ASCII. */
function assertAscii(dir) {
  // A walk of its own: readdirSync's `recursive` is newer than Node 20.0, which package.json allows.
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) assertAscii(file);
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const bytes = readFileSync(file);
    const at = bytes.findIndex((b) => b > 0x7f);
    if (at >= 0)
      throw new Error(`${file}: a non-ASCII byte at offset ${at}; write it as an escape (\\u....) in the source`);
  }
}

function shareEsmNamespaces(file) {
  const code = readFileSync(file, 'utf8');
  const calls = code.split('__toESM(').length - 1;
  // The definition (`__toESM=(`) and the banner's two calls are not call sites of the bundle.
  if (calls <= 2) throw new Error(`${file}: no __toESM call sites found; update scripts/build.mjs for this esbuild`);
  const renamed = code.replace(/(?<!return |ns = )__toESM\(/g, '__esmNs(');
  writeFileSync(file, renamed);
}

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    sourcemap: 'linked',
    // PR title/body templates (src/flow/templates/*.hbs) are bundled as strings.
    loader: { '.hbs': 'text' },
    plugins: [chunksPlugin(), lazyBuiltinsPlugin()],
    alias: YAML_AS_ESM,
    banner: { js: ESM_NAMESPACE_ONCE },
  }),
  build({ ...common, entryPoints: chunkEntries(), outdir: 'dist' }),
  // The YAML worker (src/io/yaml-worker.ts): the yaml library and rollgen's parse and serialization.
  build({
    ...common,
    entryPoints: ['src/io/yaml-worker-thread.ts'],
    outfile: 'dist/yaml-worker.js',
    alias: YAML_AS_ESM,
  }),
]);

shareEsmNamespaces('dist/cli.js');

// The Kubernetes schemas stay out of the bundle: each kind's validator is read only when a run meets it
// (its code cache is written by scripts/warm-cache.cjs like every chunk's).
const { cpSync, rmSync } = await import('node:fs');
rmSync('dist/k8s', { recursive: true, force: true });
cpSync('src/spec/generated/k8s', 'dist/k8s', { recursive: true });
assertAscii('dist');

// The code cache is an optimisation: a failure here must not fail the build.
const { spawnSync } = await import('node:child_process');
const warm = spawnSync(process.execPath, ['scripts/warm-cache.cjs'], { stdio: 'inherit' });
if (warm.status !== 0) process.stderr.write('rollgen build: code cache not written (start-up will be slower)\n');

// Last, after everything above wrote dist/: `npm test` skips its build while this stamp holds (scripts/build-stamp.mjs).
const { writeStamp } = await import('./build-stamp.mjs');
writeStamp(process.cwd());
