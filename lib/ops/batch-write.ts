import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { backoffDelay, type RetryPolicy, sleep } from '../../lambda/shared/dynamodb';

/** One write of a BatchWriteItem request. */
export type WriteRequest = { PutRequest: { Item: object } } | { DeleteRequest: { Key: object } };
type TableWrites = NonNullable<BatchWriteCommandInput['RequestItems']>[string];

/** BatchWriteItem takes at most 25 writes a call. */
const BATCH_SIZE = 25;

/** Batch retries of the operator tools: patient, since nobody waits on a request. */
export const OPERATOR_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 50, maxDelayMs: 2_000 };

/**
 * Applies writes to one table in batches of 25, retrying `UnprocessedItems` with exponential backoff and full
 * jitter; throws when some writes are still unprocessed after every attempt. `onProgress` gets the number of
 * writes done so far.
 */
export async function batchWrite(
  client: DynamoDBDocumentClient,
  tableName: string,
  writes: readonly WriteRequest[],
  onProgress?: (done: number) => void,
): Promise<void> {
  let done = 0;
  for (let start = 0; start < writes.length; start += BATCH_SIZE) {
    let pending = writes.slice(start, start + BATCH_SIZE) as TableWrites;
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= OPERATOR_RETRY.maxAttempts) {
        throw new Error(`DynamoDB left ${pending.length} writes unprocessed.`);
      }
      if (attempt > 0) await sleep(backoffDelay(attempt, OPERATOR_RETRY));
      const output = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = output.UnprocessedItems?.[tableName] ?? [];
    }
    done += Math.min(BATCH_SIZE, writes.length - start);
    onProgress?.(done);
  }
}
