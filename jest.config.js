/** Tests run from TypeScript sources; type checking is `npm run typecheck`, so transpile only. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json', 'node', 'hbs'],
  transform: {
    '^.+\\.ts$': '<rootDir>/scripts/jest-ts-transform.cjs',
    // ESM-only dependencies (Octokit) become CommonJS for jest 29; see scripts/jest-esm-transform.cjs.
    '^.+\\.m?js$': '<rootDir>/scripts/jest-esm-transform.cjs',
    // Handlebars templates bundled as strings (esbuild's text loader in scripts/build.mjs).
    '^.+\\.hbs$': '<rootDir>/scripts/jest-text-transform.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(kubernetes-models|@kubernetes-models|typescript|ajv|yaml|handlebars|commander)/'],
  testTimeout: 60000,
  // Both cores (jest's default leaves one to itself: a single worker on a 2-core CI machine).
  maxWorkers: '100%',
  // Long files first also on a clean clone, where jest has no timings of its own (scripts/jest-sequencer.cjs).
  testSequencer: '<rootDir>/scripts/jest-sequencer.cjs',
  // A kustomize cache shared by the workers of one run (test/helpers/kustomize-cache.ts).
  globalSetup: '<rootDir>/test/helpers/jest-global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/jest-global-teardown.ts',
};
