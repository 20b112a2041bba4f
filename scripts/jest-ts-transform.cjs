// Tests run from TypeScript sources, transpiled file by file with esbuild (a devDependency already,
// for the bundle): ts-jest starts a TypeScript language service in every cold worker (~2.5 s each),
// and type checking is `npm run typecheck` anyway. tsconfig's isolatedModules keeps the sources
// within what a per-file transpiler can compile.
const { createHash } = require('crypto');
const fs = require('fs');
const path = require('path');
const { transformSync, version } = require('esbuild');

// Jest's cache key of a transformed file: its text and this transformer (code and esbuild version).
const SELF = createHash('sha256')
  .update(fs.readFileSync(path.join(__dirname, 'jest-ts-transform.cjs')))
  .update(version)
  .digest('hex');

// Two of esbuild's CommonJS helpers made to behave as tsc's output does, so a test can spy on a
// module's export (jest.spyOn(namespace, 'fn') sees the calls other modules make, as
// test/coupled-apps.test.ts counts them): a namespace import of a compiled module is that module's
// exports object, not a copy, and exports are configurable. A helper that changed fails the transform.
const INTEROP = [
  [
    'var __defProp = Object.defineProperty;',
    'var __defProp = (o, k, d) => Object.defineProperty(o, k, { ...d, configurable: true });',
  ],
  [
    'var __toESM = (mod, isNodeMode, target) => (',
    'var __toESM = (mod, isNodeMode, target) => mod?.__esModule && !isNodeMode ? mod : (',
  ],
];

function asTscInterop(code, filename) {
  for (const [helper, replacement] of INTEROP) {
    const name = helper.split(' ')[1];
    if (!code.includes(`var ${name} =`)) continue;
    if (!code.includes(helper))
      throw new Error(`${filename}: esbuild's ${name} helper changed; update scripts/jest-ts-transform.cjs`);
    code = code.replace(helper, replacement);
  }
  return code;
}

module.exports = {
  getCacheKey: (source, filename) => createHash('sha256').update(SELF).update(filename).update(source).digest('hex'),
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: filename,
      // jest 29 runs CommonJS without a loader for import(): lazy imports become require, as tsc emits them.
      supported: { 'dynamic-import': false },
    });
    return { code: asTscInterop(code, filename), map };
  },
};
