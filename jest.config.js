/**
 * Jest runs in native ESM mode (`--experimental-vm-modules`, set by the npm scripts): Middy 7 ships ESM
 * only, and the Lambda bundles are ESM too. `@swc/jest` strips the TypeScript and keeps `import`/`export`;
 * packages in node_modules are loaded as they are published, untransformed.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: '<rootDir>/test/support/node-environment.js',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2024' },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  setupFiles: ['<rootDir>/test/support/environment.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30_000,
};
