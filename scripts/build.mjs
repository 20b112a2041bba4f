// Bundles the CLI for a fast start: dist/cli.js holds what every command needs; what only some runs
// need is a separate file required on first use (see scripts/chunks.mjs). The Action bundle
// (scripts/build-action.mjs) stays one file.
import { build } from 'esbuild';
import { chunkEntries, chunksPlugin, lazyBuiltinsPlugin } from './chunks.mjs';
import { join, resolve } from 'node:path';

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

// The Kubernetes schemas stay out of the bundle: each kind's validator is read only when a run meets it.
const { cpSync, rmSync } = await import('node:fs');
rmSync('dist/k8s', { recursive: true, force: true });
cpSync('src/spec/generated/k8s', 'dist/k8s', { recursive: true });
{
  // A V8 code cache per validator, made after one validation so the functions it ran are compiled in.
  const { readdirSync, readFileSync, writeFileSync } = await import('node:fs');
  const vm = await import('node:vm');
  const { default: Module, createRequire } = await import('node:module');
  for (const name of readdirSync('dist/k8s').filter((n) => n.endsWith('.js'))) {
    const file = join('dist/k8s', name);
    const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: resolve(file) });
    const mod = { exports: {} };
    script
      .runInThisContext()
      .call(mod.exports, mod.exports, createRequire(resolve(file)), mod, resolve(file), resolve('dist/k8s'));
    mod.exports({ metadata: { name: 'x', labels: {} }, spec: { template: { spec: { containers: [{ name: 'x' }] } } } });
    writeFileSync(file.replace(/\.js$/, '.cache'), script.createCachedData());
  }
}

// The code cache is an optimisation: a failure here must not fail the build.
const { spawnSync } = await import('node:child_process');
const warm = spawnSync(process.execPath, ['scripts/warm-cache.cjs'], { stdio: 'inherit' });
if (warm.status !== 0) process.stderr.write('rollgen build: code cache not written (start-up will be slower)\n');
