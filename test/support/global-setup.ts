import { startEmbeddedDynamoDB } from '../../lib/local/embedded-dynamodb';

/**
 * Starts one embedded DynamoDB engine for the whole run, unless `DYNAMODB_ENDPOINT` already names one.
 * Test files reach it through that variable and create their own uniquely prefixed tables, so they run in
 * parallel without seeing each other's data.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DYNAMODB_ENDPOINT) return;
  const engine = await startEmbeddedDynamoDB();
  process.env.DYNAMODB_ENDPOINT = engine.endpoint;
  (globalThis as { embeddedDynamoDB?: typeof engine }).embeddedDynamoDB = engine;
}
