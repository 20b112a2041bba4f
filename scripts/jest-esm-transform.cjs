// Jest 29 runs CommonJS; Octokit and some of its dependencies ship ESM only. esbuild turns ESM
// files into CommonJS at test time (the bundle does the same at build time); CommonJS files pass
// through untouched, and jest caches the result.
const { transformSync } = require('esbuild');

const ESM_SYNTAX = /^\s*(import\s|import\{|export\s|export\{|export\*)/m;

module.exports = {
  process(source, filename) {
    if (!filename.endsWith('.mjs') && !ESM_SYNTAX.test(source)) return { code: source };
    const { code, map } = transformSync(source, {
      loader: 'js',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: filename,
    });
    return { code, map };
  },
};
