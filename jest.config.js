import { availableParallelism } from 'node:os';

/**
 * Jest runs in native ESM mode (`--experimental-vm-modules`, set by the npm scripts): Middy 7 ships ESM
 * only, and the Lambda bundles are ESM too. `@swc/jest` strips the TypeScript and keeps `import`/`export`;
 * packages in node_modules are loaded as they are published, untransformed.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: '<rootDir>/testkit/jest/node-environment.js',
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
  setupFiles: ['<rootDir>/testkit/jest/environment.ts'],
  globalSetup: '<rootDir>/testkit/jest/global-setup.ts',
  globalTeardown: '<rootDir>/testkit/jest/global-teardown.ts',
  // A guard against a test that hangs, not a measure of speed: a test that runs a dozen CLI processes (tsx starting
  // each, about 0.6 s of CPU) took over 30 s with two suites at once on 2 cores (load ~12).
  testTimeout: 120_000,
  // Jest's default is one worker fewer than the cores: on 2 cores, one, in band, beside the engine. Most files
  // mostly wait (settle windows, leases, processes starting), so two a core (four on 2 cores) overlap their waits;
  // the engine stays in the parent process, which then does nothing else. Measured on 2026-12-07 (whole runs, 2 cores):
  // four 338 s, three 384 s (fewer waits overlap), six 362 s (more CPU lost to contention). A number, not '200%': Jest
  // reads a percentage above 100 as that many workers.
  maxWorkers: 2 * availableParallelism(),
  testSequencer: '<rootDir>/testkit/jest/sequencer.js',
  // How long a worker may take to exit once the run is over before Jest kills it and says it "failed to exit
  // gracefully" (500 ms by default). Every worker reaches its own 'exit' with nothing left open — checked on
  // 2026-12-07 by logging each worker's 'exit' and any SIGTERM with what it held: all four exited, none was signalled
  // while running — but a worker that ran for minutes ends its process later than that on a loaded machine.
  workerGracefulExitTimeout: 5_000,
};
