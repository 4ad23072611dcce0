/**
 * The expiry job (docs/design.md#expiry): records as `expired` every active vacancy whose deadline has passed in the
 * service time zone, then makes current again every summary that cannot be trusted. It finds what expired by key —
 * a Query per shard of the expiry index, deadline days before today — never by a Scan; each expiry is a write like
 * any other (`domain/store/writers.ts`): conditional, stamped, counted. It is idempotent (what is already expired is left
 * as it is) and resumable: stopped by its time budget or a failure, it lets go of its leases, and the next run
 * finds what is left. The scheduled function runs it hourly, the local server at start and after each day boundary,
 * and `vacancy-admin vacancies expire` on demand.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dayNumber } from '../../domain/schema/active-index';
import { needsRecount } from '../../domain/schema/summary';
import { EXPIRY_INDEX, EXPIRY_SHARDS, type TableNames, VENDOR_INDEXES } from '../../domain/schema/tables';
import {
  fromVacancyItem,
  isTombstone,
  type StoredItem,
  toVacancyItem,
} from '../../domain/schema/vacancy-item';
import { ITEM_KIND } from '../../domain/schema/vendors';
import { LATE_WRITE_MS } from '../../domain/settings/recovery-waits';
import { inPool } from '../../domain/store/pool';
import { type RecountOptions, recountSummary } from '../../domain/store/recount';
import type { SummaryGuardTimer } from '../../domain/store/summary-guard';
import { SummaryStore } from '../../domain/store/summary-store';
import { type Decide, VacancyWriters } from '../../domain/store/writers';
import type { RetryPolicy } from '../../platform/dynamodb/backoff';
import { batchGetItems } from '../../platform/dynamodb/batch-get';
import { queryAll, queryPages } from '../../platform/dynamodb/query-all';
import type { ZoneClock } from '../../platform/time/zone-clock';

/** What a run of the job needs. */
export interface ExpiryOptions {
  readonly client: DynamoDBDocumentClient;
  readonly tables: TableNames;
  /** The service zone's clock: what day it is. */
  readonly clock: ZoneClock;
  /** The time (tests move it). */
  readonly now?: () => Date;
  /**
   * The run's time budget: no new work starts once it aborts — what is under way finishes — and the next run goes on
   * from there.
   */
  readonly signal?: AbortSignal;
  /** Expiries in flight at once. */
  readonly concurrency?: number;
  /** The recount's waiting, replaceable so tests need not wait. */
  readonly recount?: Pick<RecountOptions, 'sleep' | 'settleMs'>;
  /** The timer of the summary leases' guards (`domain/store/summary-guard.ts`). */
  readonly guard?: SummaryGuardTimer;
}

/** What a run did. */
export interface ExpiryReport {
  /** The day it ran for, in the service zone. */
  readonly today: string;
  readonly expired: number;
  /** Vendors whose vacancies it expired. */
  readonly vendors: readonly string[];
  /** Vendors whose summary it counted anew. */
  readonly recounted: readonly string[];
  /** Vendors whose summary still waits: a writer was at work. */
  readonly busy: readonly string[];
  /** False when the time budget stopped it: the next run goes on. */
  readonly finished: boolean;
}

const RETRY: RetryPolicy = { maxStalls: 8, baseDelayMs: 50, maxDelayMs: 2_000 };
const CONCURRENCY = 10;

/** The expiry of an item, decided on what it is now: only an active vacancy whose deadline is before `today`. */
const expiry =
  (today: string): Decide =>
  (current, updatedAt) =>
    current && !isTombstone(current) && current.status === 'active' && current.deadline < today
      ? { put: toVacancyItem({ ...fromVacancyItem(current), status: 'expired' }, updatedAt) }
      : { unchanged: true };

/** Every id of one shard of the expiry index whose deadline day is before `today`, a page at a time. */
async function* dueIds(options: ExpiryOptions, shard: number, today: number): AsyncGenerator<number[]> {
  const pages = queryPages(options.client, {
    TableName: options.tables.vacancies,
    IndexName: EXPIRY_INDEX.name,
    KeyConditionExpression: '#shard = :shard AND #day < :today',
    ExpressionAttributeNames: { '#shard': EXPIRY_INDEX.partitionKey, '#day': EXPIRY_INDEX.sortKey },
    ExpressionAttributeValues: { ':shard': shard, ':today': today },
  });
  for await (const page of pages) yield page.map((entry) => entry.id as number);
}

/** Every vendor id, from the vendors table's `by-kind` index. */
async function vendorIds(options: ExpiryOptions): Promise<string[]> {
  const items = await queryAll(options.client, {
    TableName: options.tables.vendors,
    IndexName: VENDOR_INDEXES.byKind,
    KeyConditionExpression: 'kind = :kind',
    ProjectionExpression: 'vendorId',
    ExpressionAttributeValues: { ':kind': ITEM_KIND.vendor },
  });
  return items.map((item) => item.vendorId as string);
}

/** One run of the job; see the module's comment. A failure of DynamoDB is thrown, after the leases are let go. */
export async function runExpiry(options: ExpiryOptions): Promise<ExpiryReport> {
  const now = options.now ?? (() => new Date());
  const today = options.clock.today(now());
  const stop = () => options.signal?.aborted === true;
  const writers = new VacancyWriters({
    client: options.client,
    tables: options.tables,
    now: () => now().getTime(),
    ...(options.guard && { guard: options.guard }),
  });
  let expired = 0;
  try {
    for (let shard = 0; shard < EXPIRY_SHARDS && !stop(); shard += 1) {
      for await (const ids of dueIds(options, shard, dayNumber(today))) {
        if (stop()) break;
        const { items } = await batchGetItems(
          options.client,
          options.tables.vacancies,
          ids.map((id) => ({ id })),
          { retry: RETRY },
        );
        const byId = new Map(items.map((item) => [item.id as number, item as unknown as StoredItem]));
        await inPool(
          ids,
          options.concurrency ?? CONCURRENCY,
          async (id) => {
            const outcome = await writers.write(id, expiry(today), byId.get(id) ?? null);
            if ('written' in outcome) expired += 1;
          },
          stop,
        );
      }
    }
  } finally {
    await writers.close();
  }
  const vendors = writers.vendors;

  // Then every summary that cannot be trusted for want of a writer: one killed holding its lease, one that lost it,
  // or a vendor's that no writer has settled yet. (Expiries not yet recorded need no recount: recording them, above,
  // moves the counts.) The others lose the counts that have come down to zero.
  const recounted: string[] = [];
  const busy: string[] = [];
  if (!stop()) {
    const ids = await vendorIds(options);
    const store = new SummaryStore(options.client, options.tables.vendors);
    const summaries = await store.readMany(ids);
    const stale = new Set(
      ids.filter((vendorId) => needsRecount(summaries.get(vendorId), now().getTime(), LATE_WRITE_MS)),
    );
    for (const [vendorId, summary] of summaries) {
      if (!stale.has(vendorId) && !stop()) {
        await store.pruneZeros(vendorId, summary);
      }
    }
    await inPool(
      [...stale],
      options.concurrency ?? CONCURRENCY,
      async (vendorId) => {
        const outcome = await recountSummary(vendorId, {
          client: options.client,
          tables: options.tables,
          now: () => now().getTime(),
          ...options.recount,
        });
        (outcome === 'recounted' ? recounted : busy).push(vendorId);
      },
      stop,
    );
  }
  return { today, expired, vendors, recounted, busy, finished: !stop() };
}
