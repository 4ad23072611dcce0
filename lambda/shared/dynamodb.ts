import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** How to reach DynamoDB. */
export interface DynamoDBConnection {
  /** A non-AWS endpoint (the embedded engine, DynamoDB Local); AWS itself when absent. */
  readonly endpoint?: string | undefined;
  /** Attempts per call, including the first (the SDK retries throttling and 5xx with backoff). */
  readonly maxAttempts?: number;
  /** AWS region; the SDK's default chain (AWS_REGION, profile) when absent. */
  readonly region?: string | undefined;
}

/**
 * A DynamoDB client for the given connection. Against a local endpoint it signs with fixed dummy
 * credentials, so nothing probes the AWS credential chain (and no real credentials are sent to it).
 */
export function createDynamoDBClient(connection: DynamoDBConnection = {}): DynamoDBClient {
  const { endpoint, maxAttempts = 3, region } = connection;
  return new DynamoDBClient({
    maxAttempts,
    ...(region && { region }),
    // A stuck connection must fail (and be retried) well inside API Gateway's 29-second limit.
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
    ...(endpoint && {
      endpoint,
      region: process.env.AWS_REGION ?? 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  });
}

/** The document client (plain JavaScript values in and out) over a DynamoDB client. */
export function createDocumentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** DynamoDB could not serve a read in time: throttled, or unavailable, after every retry. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** Throttling error names of DynamoDB and of the SDK's own retry quota. */
const THROTTLING_ERRORS: ReadonlySet<string> = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TimeoutError',
]);

/**
 * Whether an error means "DynamoDB is throttling or unavailable" — a reason to answer 503 with
 * `Retry-After` — as opposed to a bug or a bad request, which stay a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  // Errors from the SDK carry `$fault`: "server" for DynamoDB's 5xx (InternalServerError, ServiceUnavailable).
  return THROTTLING_ERRORS.has(error.name) || (error as { $fault?: string }).$fault === 'server';
}

/** Every item a Scan returns, following `LastEvaluatedKey`. For operators' tools on small tables only. */
export async function scanAll(
  client: DynamoDBDocumentClient,
  input: ScanCommandInput,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await client.send(new ScanCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(output.Items ?? []));
    startKey = output.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Whether an error is DynamoDB's answer to a failed `ConditionExpression`. */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Retries of the items a batch call left unprocessed: attempts in all, and the bounds of the backoff. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** Waits before retry `attempt` (1, 2, …): full jitter (AWS Architecture Blog, "Exponential Backoff and Jitter"). */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  return Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

/** Resolves after `milliseconds`. */
export const sleep = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** Read capacity units of a response's `ConsumedCapacity`, one entry or several. */
export const capacityUnits = (capacity: ConsumedCapacity | ConsumedCapacity[] | undefined): number =>
  [capacity ?? []].flat().reduce((total, entry) => total + (entry.CapacityUnits ?? 0), 0);

/** BatchGetItem takes at most 100 keys a call. */
const BATCH_GET_SIZE = 100;

/**
 * The items of these keys of one table, in any order (absent items are simply missing), in calls of 100 keys,
 * retrying `UnprocessedKeys` with backoff; throws `DatabaseUnavailableError` when keys are still unprocessed
 * after `retry.maxAttempts` calls.
 */
export async function batchGetItems(
  client: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Record<string, unknown>[],
  options: {
    readonly retry: RetryPolicy;
    readonly projection?: { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> };
    readonly sleep?: (milliseconds: number) => Promise<void>;
  },
): Promise<{ items: Record<string, unknown>[]; readUnits: number; calls: number }> {
  const wait = options.sleep ?? sleep;
  const items: Record<string, unknown>[] = [];
  let readUnits = 0;
  let calls = 0;
  for (let start = 0; start < keys.length; start += BATCH_GET_SIZE) {
    let pending = keys.slice(start, start + BATCH_GET_SIZE) as Record<string, unknown>[];
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 0) {
        if (attempt >= options.retry.maxAttempts) {
          throw new DatabaseUnavailableError('BatchGetItem left keys unprocessed');
        }
        await wait(backoffDelay(attempt, options.retry));
      }
      const output = await client.send(
        new BatchGetCommand({
          RequestItems: { [tableName]: { Keys: pending, ...options.projection } },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      calls += 1;
      readUnits += capacityUnits(output.ConsumedCapacity);
      items.push(...(output.Responses?.[tableName] ?? []));
      pending = output.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return { items, readUnits, calls };
}
