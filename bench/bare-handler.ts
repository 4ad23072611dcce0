/**
 * The benchmark's reference function: it only imports the DynamoDB client and Middy, as any DynamoDB-backed
 * Middy function must, creates the client once, and answers 200. Bundled with the stack's esbuild settings, its
 * cold init is the floor the real functions are compared against.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';

const client = new DynamoDBClient({});

export const handler = middy(async () => ({
  statusCode: 200,
  body: JSON.stringify({ region: typeof client }),
}));
