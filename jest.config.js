/** Tests run from TypeScript sources; type checking is `npm run typecheck`, so transpile only. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
    // ESM-only dependencies (Octokit) become CommonJS for jest 29; see scripts/jest-esm-transform.cjs.
    '^.+\\.m?js$': '<rootDir>/scripts/jest-esm-transform.cjs',
  },
  transformIgnorePatterns: ['/node_modules/(kubernetes-models|@kubernetes-models|typescript|ajv|yaml|handlebars|commander)/'],
  testTimeout: 60000,
};
