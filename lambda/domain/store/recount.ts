/**
 * Making a vendor's summary current again by counting (docs/design.md#the-summary): after a writer
 * was killed holding its lease, after a writer lost its lease, or when a count went wrong. A recount takes a lease
 * of its own — only when no writer's lease is still running, and taking over the ones that ran out — waits for the
 * index to settle, counts the vendor's active index, and writes the whole summary anew, on the condition that no
 * writer started meanwhile (every lease bumps the version). Until it succeeds the summary stays marked broken, so a
 * recount that gives up leaves nothing that looks current.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryPages } from '../../platform/dynamodb/query-all';
import { settlesAt } from '../change-feed/settle';
import { typeOfIndexed } from '../schema/active-index';
import { addCounts, type Counts, countAttribute, dayAttribute, leaseTakenOver } from '../schema/summary';
import { ACTIVE_INDEX, ITEM, type TableNames, VACANCIES_TABLE } from '../schema/tables';
import { LATE_WRITE_MS, WAITS } from '../settings/recovery-waits';
import { serverClock } from './clock';
import { SummaryStore } from './summary-store';

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
  /** The vacancy's id (the table's key, in every index). */
  readonly id: number;
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
    ProjectionExpression: '#id, #t, #n, #x, #d',
    ExpressionAttributeNames: {
      '#vendor': ACTIVE_INDEX.partitionKey,
      '#id': VACANCIES_TABLE.partitionKey.name,
      '#t': ITEM.type,
      '#n': ITEM.experienceMin,
      '#x': ITEM.experienceMax,
      '#d': ITEM.deadline,
    },
    ExpressionAttributeValues: { ':vendor': vendorId },
  });
  for await (const page of pages) {
    yield page.map((entry) => ({
      id: entry[VACANCIES_TABLE.partitionKey.name] as number,
      type: typeOfIndexed(entry[ITEM.type] as number),
      min: entry[ITEM.experienceMin] as number,
      max: entry[ITEM.experienceMax] as number | undefined,
      day: entry[ITEM.deadline] as number,
    }));
  }
}

/**
 * Counts a vendor's active index: its active vacancies by type and experience range, and by deadline day — each
 * vacancy once, as a page reads each item once: an index follows its table a moment behind, and may show an item
 * at its old key and its new one at once (docs/design.md#a-kill-timeline).
 */
async function countActiveIndex(client: DynamoDBDocumentClient, tables: TableNames, vendorId: string) {
  const counts: Counts = new Map();
  const counted = new Set<number>();
  for await (const entries of activeIndexEntries(client, tables.vacancies, vendorId)) {
    for (const { id, type, min, max, day } of entries) {
      if (counted.has(id)) continue;
      counted.add(id);
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

/** Makes a vendor's summary current again by counting its active index; see the module's comment. */
export async function recountSummary(vendorId: string, options: RecountOptions): Promise<RecountOutcome> {
  const { client, tables } = options;
  const store = new SummaryStore(client, tables.vendors);
  // Whether a lease ran out is judged by a clock never ahead of DynamoDB's (`domain/store/clock.ts`).
  const now = options.now ?? serverClock(client);
  const sleep = options.sleep ?? ((ms: number) => wait(ms));
  const { summary } = await store.read(vendorId);
  const current = now();
  if (
    summary &&
    [...summary.leases.values()].some((expires) => !leaseTakenOver(expires, current, LATE_WRITE_MS))
  )
    return 'busy';

  // Take over: a lease of its own, the runs-out ones gone, and broken until the count is written.
  const lease = `recount-${randomBytes(4).toString('hex')}`;
  const version = await store.takeOver(vendorId, summary, lease, current + WAITS.summaryLeaseMs);
  if (version === undefined) return 'busy';

  // Writes made before the lease have reached the index by now — unless no writer ever wrote for the vendor.
  const written =
    summary !== undefined && (summary.releasedAt !== undefined || summary.leases.size > 0 || summary.broken);
  if (written) await sleep(settlesAt(current, options.settleMs) - current);
  const counts = await countActiveIndex(client, tables, vendorId);
  const kept = { purgedBefore: summary?.purgedBefore, latestStamp: summary?.latestStamp };
  if (await store.putRecounted(vendorId, version, counts, now(), kept)) return 'recounted';
  // A writer started: let go, leaving the summary broken for the next recount.
  await store.releaseLease(vendorId, lease);
  return 'busy';
}
