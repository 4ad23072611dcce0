/**
 * BatchGetItem as the reads need it: the items of any number of keys of one table, in calls of 100 keys, the
 * `UnprocessedKeys` retried with backoff within the request's deadline, and the calls and read units it took
 * counted. A table that keeps leaving keys unprocessed is an `UnavailableError`.
 */
import { type AttributeValue, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { UnavailableError } from '../aws/errors';
import { backoffDelay, type RetryPolicy, sleep } from './backoff';
import { capacityUnits } from './capacity';
import { underDeadline } from './deadline';
import { attributeValues, type KeyValue, type ReadClient } from './read-client';

/** BatchGetItem takes at most 100 keys a call. */
const BATCH_GET_SIZE = 100;

/** What a batch read returned and cost. */
export interface BatchGetResult {
  readonly items: Record<string, unknown>[];
  readonly readUnits: number;
  readonly calls: number;
}

/**
 * The items of these keys of one table, in any order (absent items are simply missing), in calls of 100 keys
 * (`concurrency` calls at a time; one by default), retrying `UnprocessedKeys`; throws `UnavailableError`
 * after `retry.maxStalls` rounds in a row that processed none of a call's keys.
 */
export async function batchGetItems(
  client: ReadClient,
  tableName: string,
  keys: readonly Readonly<Record<string, KeyValue>>[],
  options: {
    readonly retry: RetryPolicy;
    readonly projection?: { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> };
    readonly sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
    readonly concurrency?: number;
    /** Aborts every call, and every wait between them, when the request's time is spent. */
    readonly signal?: AbortSignal;
  },
): Promise<BatchGetResult> {
  const pause = options.sleep ?? sleep;
  const { signal } = options;
  const items: Record<string, unknown>[] = [];
  let readUnits = 0;
  let calls = 0;
  const chunks: Record<string, AttributeValue>[][] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_SIZE) {
    chunks.push(keys.slice(start, start + BATCH_GET_SIZE).map(attributeValues));
  }
  const readChunk = async (chunk: Record<string, AttributeValue>[]) => {
    let pending = chunk;
    let stalls = 0;
    while (pending.length > 0) {
      if (stalls > 0) {
        if (stalls > options.retry.maxStalls) {
          throw new UnavailableError('BatchGetItem left keys unprocessed');
        }
        await pause(backoffDelay(stalls, options.retry), signal);
      }
      const output = await client.send(
        new BatchGetItemCommand({
          RequestItems: { [tableName]: { Keys: pending, ...options.projection } },
          ReturnConsumedCapacity: 'TOTAL',
        }),
        underDeadline(signal),
      );
      calls += 1;
      readUnits += capacityUnits(output.ConsumedCapacity);
      for (const item of output.Responses?.[tableName] ?? []) items.push(unmarshall(item));
      const unprocessed = output.UnprocessedKeys?.[tableName]?.Keys ?? [];
      stalls = unprocessed.length < pending.length ? 0 : stalls + 1;
      pending = unprocessed;
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) await readChunk(chunks[next++] as Record<string, AttributeValue>[]);
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 1, chunks.length) }, worker));
  return { items, readUnits, calls };
}
