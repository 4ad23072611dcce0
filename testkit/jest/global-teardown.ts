import type { EmbeddedDynamoDB } from '../../lib/local/embedded-dynamodb';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { embeddedDynamoDB?: EmbeddedDynamoDB }).embeddedDynamoDB?.stop();
}
