/**
 * The embedded DynamoDB in a process of its own, so that the benchmark's requests and the engine do not share a
 * CPU (as they would not with DynamoDB). Prints its endpoint, then serves until killed.
 */
import { startEmbeddedDynamoDB } from '../lib/local/embedded-dynamodb';

const engine = await startEmbeddedDynamoDB();
console.log(engine.endpoint);
