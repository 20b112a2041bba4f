/** Tests run from TypeScript sources; type checking is `npm run typecheck`, so transpile only. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 60000,
};
