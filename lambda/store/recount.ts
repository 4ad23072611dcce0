/**
 * Reading a vendor's summary, and making it current again by counting (docs/design.md#the-summary): after a writer
 * was killed holding its lease, after a writer lost its lease, or when a count went wrong. A recount takes a lease
 * of its own — only when no writer's lease is still running, and taking over the ones that ran out — waits for the
 * index to settle, counts the vendor's active index, and writes the whole summary anew, on the condition that no
 * writer started meanwhile (every lease bumps the version). Until it succeeds the summary stays marked broken, so a
 * recount that gives up leaves nothing that looks current.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed } from '../aws/failure';
import { capacityUnits } from '../dynamodb/batch-get';
import { underDeadline } from '../dynamodb/deadline';
import { queryPages } from '../dynamodb/query-all';
import {
  addCounts,
  type Counts,
  countAttribute,
  dayAttribute,
  INDEX_SETTLE_MS,
  leaseAttribute,
  readSummary,
  SUMMARY,
  type Summary,
  summaryItemKey,
} from '../schema/summary';
import { ACTIVE_INDEX, ITEM, type TableNames } from '../schema/tables';
import { serverClock } from './clock';
import { LEASE_MS } from './writers';

/** A vendor's summary, read strongly, and what the read cost; undefined when the vendor has none yet. */
export async function readVendorSummary(
  client: DynamoDBDocumentClient,
  vendorsTable: string,
  vendorId: string,
  signal?: AbortSignal,
): Promise<{ summary: Summary | undefined; readUnits: number }> {
  const output = await client.send(
    new GetCommand({
      TableName: vendorsTable,
      Key: summaryItemKey(vendorId),
      ConsistentRead: true,
      ReturnConsumedCapacity: 'TOTAL',
    }),
    underDeadline(signal),
  );
  return {
    summary: output.Item ? readSummary(output.Item) : undefined,
    readUnits: capacityUnits(output.ConsumedCapacity),
  };
}

/**
 * Whether a summary needs a recount: broken, holding leases that have run out, or never settled by a writer (a
 * vendor nothing has been written for yet — or none at all, when there is no summary).
 */
export function needsRecount(summary: Summary | undefined, now: number): boolean {
  if (!summary || summary.broken) return true;
  const leases = [...summary.leases.values()];
  if (leases.some((expires) => expires <= now)) return true;
  return summary.settledAt === undefined && leases.length === 0;
}

/** What a recount did. */
export type RecountOutcome =
  /** The summary is current again. */
  | 'recounted'
  /** A writer is at work (its lease runs), or started meanwhile: nothing to do now, the summary stays untrusted. */
  | 'busy';

/** What a recount needs. */
export interface RecountOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tables: TableNames;
  readonly now?: () => number;
  /** Waits the settle window; replaceable so tests need not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly settleMs?: number;
}

/** What the summary counts of an active vacancy: its type, experience range and deadline day. */
export interface ActiveEntry {
  readonly type: number;
  readonly min: number;
  /** Undefined: open-ended. */
  readonly max: number | undefined;
  readonly day: number;
}

/** Every entry of a vendor's active index, a page at a time (a recount's read; the tests' too). */
export async function* activeIndexEntries(
  client: DynamoDBDocumentClient,
  vacanciesTable: string,
  vendorId: string,
): AsyncGenerator<ActiveEntry[]> {
  const pages = queryPages(client, {
    TableName: vacanciesTable,
    IndexName: ACTIVE_INDEX.name,
    KeyConditionExpression: '#vendor = :vendor',
    ProjectionExpression: '#t, #n, #x, #d',
    ExpressionAttributeNames: {
      '#vendor': ACTIVE_INDEX.partitionKey,
      '#t': ITEM.type,
      '#n': ITEM.experienceMin,
      '#x': ITEM.experienceMax,
      '#d': ITEM.deadline,
    },
    ExpressionAttributeValues: { ':vendor': vendorId },
  });
  for await (const page of pages) {
    yield page.map((entry) => ({
      type: entry[ITEM.type] as number,
      min: entry[ITEM.experienceMin] as number,
      max: entry[ITEM.experienceMax] as number | undefined,
      day: entry[ITEM.deadline] as number,
    }));
  }
}

/** Counts a vendor's active index: its active vacancies by type and experience range, and by deadline day. */
async function countActiveIndex(client: DynamoDBDocumentClient, tables: TableNames, vendorId: string) {
  const counts: Counts = new Map();
  for await (const entries of activeIndexEntries(client, tables.vacancies, vendorId)) {
    for (const { type, min, max, day } of entries) {
      addCounts(
        counts,
        new Map([
          [countAttribute(type, min, max), 1],
          [dayAttribute(day), 1],
        ]),
      );
    }
  }
  return counts;
}

/**
 * Removes the counts of a summary that have come down to zero — past deadline days, ranges no vacancy has any more —
 * so that it stays a few hundred attributes however long the vendor stays: each removed only if still zero (a
 * missing count is a zero to `ADD`, so no writer needs to know). Up to 100 at a time; the rest next time.
 */
export async function pruneSummary(
  client: DynamoDBDocumentClient,
  vendorsTable: string,
  vendorId: string,
  summary: Summary,
): Promise<number> {
  const zeros = [
    ...summary.ranges
      .filter(({ count }) => count === 0)
      .map(({ type, min, max }) => countAttribute(type, min, max)),
    ...[...summary.days].filter(([, count]) => count === 0).map(([day]) => dayAttribute(day)),
  ].slice(0, 100);
  if (zeros.length === 0) return 0;
  try {
    await client.send(
      new UpdateCommand({
        TableName: vendorsTable,
        Key: summaryItemKey(vendorId),
        UpdateExpression: `REMOVE ${zeros.map((_, i) => `#z${i}`).join(', ')}`,
        ConditionExpression: zeros.map((_, i) => `#z${i} = :zero`).join(' AND '),
        ExpressionAttributeNames: Object.fromEntries(zeros.map((name, i) => [`#z${i}`, name])),
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
  } catch (error) {
    // A writer moved one of them meanwhile: left for the next run.
    if (isConditionFailed(error)) return 0;
    throw error;
  }
  return zeros.length;
}

/** Makes a vendor's summary current again by counting its active index; see the module's comment. */
export async function recountSummary(vendorId: string, options: RecountOptions): Promise<RecountOutcome> {
  const { client, tables } = options;
  // Whether a lease ran out is judged by a clock never ahead of DynamoDB's (`store/clock.ts`).
  const now = options.now ?? serverClock(client);
  const sleep = options.sleep ?? ((ms: number) => wait(ms));
  const key = summaryItemKey(vendorId);
  const { summary } = await readVendorSummary(client, tables.vendors, vendorId);
  const current = now();
  if (summary && [...summary.leases.values()].some((expires) => expires > current)) return 'busy';

  // Take over: a lease of its own, the runs-out ones gone, and broken until the count is written.
  const lease = leaseAttribute(`recount-${randomBytes(4).toString('hex')}`);
  const stale = [...(summary?.leases.keys() ?? [])].map(leaseAttribute);
  const names: Record<string, string> = {
    '#lease': lease,
    '#version': SUMMARY.version,
    '#broken': SUMMARY.broken,
    ...Object.fromEntries(stale.map((name, i) => [`#stale${i}`, name])),
  };
  let version: number;
  try {
    const output = await client.send(
      new UpdateCommand({
        TableName: tables.vendors,
        Key: key,
        UpdateExpression: `SET #lease = :expires, #broken = :true ADD #version :one${stale.length > 0 ? ` REMOVE ${stale.map((_, i) => `#stale${i}`).join(', ')}` : ''}`,
        ConditionExpression: summary ? '#version = :seen' : 'attribute_not_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':expires': current + LEASE_MS,
          ':true': true,
          ':one': 1,
          ...(summary && { ':seen': summary.version }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    version = (output.Attributes?.[SUMMARY.version] as number | undefined) ?? 0;
  } catch (error) {
    if (isConditionFailed(error)) return 'busy';
    throw error;
  }

  // Writes made before the lease have reached the index by now — unless no writer ever wrote for the vendor.
  const written =
    summary !== undefined && (summary.settledAt !== undefined || summary.leases.size > 0 || summary.broken);
  if (written) await sleep(options.settleMs ?? INDEX_SETTLE_MS);
  const counts = await countActiveIndex(client, tables, vendorId);
  try {
    await client.send(
      new PutCommand({
        TableName: tables.vendors,
        Item: {
          ...key,
          [SUMMARY.version]: version + 1,
          [SUMMARY.settledAt]: now(),
          ...(summary?.purgedBefore !== undefined && { [SUMMARY.purgedBefore]: summary.purgedBefore }),
          ...Object.fromEntries([...counts].filter(([, count]) => count !== 0)),
        },
        // No writer took a lease since this one (each would have bumped the version).
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': SUMMARY.version },
        ExpressionAttributeValues: { ':version': version },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    // A writer started: let go, leaving the summary broken for the next recount.
    await client.send(
      new UpdateCommand({
        TableName: tables.vendors,
        Key: key,
        UpdateExpression: 'REMOVE #lease',
        ExpressionAttributeNames: { '#lease': lease },
      }),
    );
    return 'busy';
  }
  return 'recounted';
}
