import { startEmbeddedDynamoDB } from '../../lib/local/embedded-dynamodb';

/**
 * Starts one embedded DynamoDB engine for the whole run, unless `DYNAMODB_ENDPOINT` already names one.
 * Test files reach it through that variable and create their own uniquely prefixed tables, so they run in
 * parallel without seeing each other's data.
 */
export default async function globalSetup(): Promise<void> {
  const given = process.env.DYNAMODB_ENDPOINT;
  // Whether the run started its engine: then a file may start one of its own for a heavy load (`ownEngine`).
  process.env.VVA_TEST_ENGINE = given ? 'given' : 'embedded';
  if (!given) {
    const engine = await startEmbeddedDynamoDB();
    process.env.DYNAMODB_ENDPOINT = engine.endpoint;
    (globalThis as { embeddedDynamoDB?: typeof engine }).embeddedDynamoDB = engine;
  }
  const description = given
    ? `DynamoDB at ${given}`
    : `embedded DynamoDB (dynalite) at ${process.env.DYNAMODB_ENDPOINT}`;
  process.stdout.write(`\nTests on Node.js ${process.version}, ${description}\n`);
}
