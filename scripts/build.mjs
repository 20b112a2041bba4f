// Bundles the CLI into one file so start-up reads one module instead of hundreds.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/cli.js',
  sourcemap: 'linked',
  legalComments: 'none',
  // Smaller source to read at every start; names are kept so stack traces (--debug) stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  // PR title/body templates (src/flow/templates/*.hbs) are bundled as strings.
  loader: { '.hbs': 'text' },
  logLevel: 'warning',
});

// The code cache is an optimisation: a failure here must not fail the build.
const { spawnSync } = await import('node:child_process');
const warm = spawnSync(process.execPath, ['scripts/warm-cache.cjs'], { stdio: 'inherit' });
if (warm.status !== 0) process.stderr.write('rollgen build: code cache not written (start-up will be slower)\n');
