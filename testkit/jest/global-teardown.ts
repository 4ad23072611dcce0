import { appendFileSync } from 'node:fs';
import type { EmbeddedDynamoDB } from '../../lib/local/embedded-dynamodb';

export default async function globalTeardown(): Promise<void> {
  // The run's own process (Jest's parent: the engine, the reporters) beside the test files' lines (node-environment.js).
  const log = process.env.VVA_TEST_CPU;
  if (log) {
    const { user, system } = process.cpuUsage();
    appendFileSync(
      log,
      `${JSON.stringify({ file: 'jest parent process', cpuMs: Math.round((user + system) / 1000) })}\n`,
    );
  }
  await (globalThis as { embeddedDynamoDB?: EmbeddedDynamoDB }).embeddedDynamoDB?.stop();
}
