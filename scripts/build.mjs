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
  logLevel: 'warning',
});
