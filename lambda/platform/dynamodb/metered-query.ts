/**
 * The request path's Query loop, metered: one Query of an index, call by call
 * following `LastEvaluatedKey` while the caller says to go on, each call under the request's deadline, the read
 * units and calls added up (`queryCalls`, for a reader that takes the calls one at a time). `collectQuery` keeps the first entries a page needs; `countQuery` counts to the end.
 * (The jobs and tools, which need every item and no meter, use `query-all.ts`.)
 */
import {
  type AttributeValue,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { capacityUnits, type ReadCost } from './capacity';
import { underDeadline } from './deadline';
import { attributeValues, type KeyValue, type ReadClient } from './read-client';

/** A Query's parameters, without what the loop sets itself; its values plain (`read-client.ts` converts them). */
export type QueryInput = Omit<
  QueryCommandInput,
  'TableName' | 'ExclusiveStartKey' | 'ReturnConsumedCapacity' | 'ExpressionAttributeValues'
> & { readonly ExpressionAttributeValues?: Readonly<Record<string, KeyValue>> };

/** Where a metered Query reads. */
export interface MeteredQueryTarget {
  readonly client: ReadClient;
  readonly tableName: string;
  /**
   * Entries per call, at most. Absent: as many as a read needs (and DynamoDB's own limit, 1 MB a call). Tests set it
   * low so that a read spans several calls (`LastEvaluatedKey`) on a small data set.
   */
  readonly queryPageSize?: number | undefined;
}

/** One call of a metered Query: its answer, and what it cost. */
export type MeteredCall = QueryCommandOutput & ReadCost;

/**
 * A Query's calls one by one, following `LastEvaluatedKey` to the end (or while the caller goes on asking);
 * `input` gives each call's parameters, and each answer comes with what it cost.
 */
export async function* queryCalls(
  target: MeteredQueryTarget,
  input: () => QueryInput,
  signal: AbortSignal | undefined,
): AsyncGenerator<MeteredCall> {
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const { ExpressionAttributeValues: values, ...call } = input();
    const output = await target.client.send(
      new QueryCommand({
        TableName: target.tableName,
        ...call,
        ...(values && { ExpressionAttributeValues: attributeValues(values) }),
        ExclusiveStartKey: startKey,
        ReturnConsumedCapacity: 'TOTAL',
      }),
      underDeadline(signal),
    );
    startKey = output.LastEvaluatedKey;
    yield { ...output, readUnits: capacityUnits(output.ConsumedCapacity), calls: 1 };
  } while (startKey);
}

/**
 * Runs a Query call by call, following `LastEvaluatedKey`, while `more` (given each answer) says to go on; `input`
 * gives each call's parameters. Adds up what the calls cost.
 */
export async function meteredQuery(
  target: MeteredQueryTarget,
  input: () => QueryInput,
  signal: AbortSignal | undefined,
  more: (output: QueryCommandOutput) => boolean,
): Promise<ReadCost> {
  let readUnits = 0;
  let calls = 0;
  for await (const output of queryCalls(target, input, signal)) {
    calls += output.calls;
    readUnits += output.readUnits;
    if (!more(output)) break;
  }
  return { readUnits, calls };
}

/** A call's `Limit`, within the target's `queryPageSize`. */
const capped = (target: MeteredQueryTarget, limit: number) =>
  target.queryPageSize === undefined ? limit : Math.min(limit, target.queryPageSize);

/**
 * The first `wanted` entries a Query selects, or all when fewer; each call reads `limit(found so far)` entries at
 * most.
 */
export async function collectQuery<T>(
  target: MeteredQueryTarget,
  input: QueryInput,
  signal: AbortSignal | undefined,
  wanted: number,
  limit: (found: number) => number,
  map: (entry: Record<string, unknown>) => T,
): Promise<ReadCost & { items: T[] }> {
  const items: T[] = [];
  const cost = await meteredQuery(
    target,
    () => ({ ...input, Limit: capped(target, limit(items.length)) }),
    signal,
    (output) => {
      items.push(...(output.Items ?? []).map((item) => map(unmarshall(item))));
      return items.length < wanted;
    },
  );
  return { items, ...cost };
}

/** How many entries a Query selects (after its filter), to the end. */
export async function countQuery(
  target: MeteredQueryTarget,
  input: QueryInput,
  signal: AbortSignal | undefined,
): Promise<ReadCost & { total: number }> {
  let total = 0;
  const cost = await meteredQuery(
    target,
    () => ({
      ...input,
      Select: 'COUNT',
      ...(target.queryPageSize !== undefined && { Limit: target.queryPageSize }),
    }),
    signal,
    (output) => {
      total += output.Count ?? 0;
      return true;
    },
  );
  return { total, ...cost };
}
