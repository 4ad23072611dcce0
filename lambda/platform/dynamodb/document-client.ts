/**
 * The document client, for the jobs and tools that write (plain JavaScript values in and out). The request path's
 * reads do without it (`read-client.ts`), so that a function that only reads does not bundle it.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The document client (plain JavaScript values in and out) over a DynamoDB client. */
export function createDocumentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
