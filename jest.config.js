/** Tests run from TypeScript sources; type checking is `npm run typecheck`, so transpile only. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json', 'node', 'hbs'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
    // ESM-only dependencies (Octokit) become CommonJS for jest 29; see scripts/jest-esm-transform.cjs.
    '^.+\\.m?js$': '<rootDir>/scripts/jest-esm-transform.cjs',
    // Handlebars templates bundled as strings (esbuild's text loader in scripts/build.mjs).
    '^.+\\.hbs$': '<rootDir>/scripts/jest-text-transform.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(kubernetes-models|@kubernetes-models|typescript|ajv|yaml|handlebars|commander)/'],
  testTimeout: 60000,
};
