// Bundles the CLI for a fast start: dist/cli.js holds what every command needs; what only some runs
// need is a separate file required on first use (see scripts/chunks.mjs). The Action bundle
// (scripts/build-action.mjs) stays one file.
import { build } from 'esbuild';
import { chunkEntries, chunksPlugin, lazyBuiltinsPlugin } from './chunks.mjs';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  // Smaller source to read at every start; names are kept so stack traces (--debug) stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    sourcemap: 'linked',
    // PR title/body templates (src/flow/templates/*.hbs) are bundled as strings.
    loader: { '.hbs': 'text' },
    plugins: [chunksPlugin(), lazyBuiltinsPlugin()],
  }),
  build({ ...common, entryPoints: chunkEntries(), outdir: 'dist' }),
]);

// The code cache is an optimisation: a failure here must not fail the build.
const { spawnSync } = await import('node:child_process');
const warm = spawnSync(process.execPath, ['scripts/warm-cache.cjs'], { stdio: 'inherit' });
if (warm.status !== 0) process.stderr.write('rollgen build: code cache not written (start-up will be slower)\n');
