/**
 * The vacancies routes' data access (docs/design.md#how-a-listing-reads, #incremental-sync): what a listing, a
 * sync and the one-vacancy route read, composed of one reader per thing read — the active and search indexes
 * (`active-index-reader.ts`), the change index (`domain/change-feed/`), the items (`domain/reads/item-reader.ts`)
 * and the vendor's summary (`domain/store/summary-reader.ts`). Nothing is scanned. The interface is what the
 * listing's sources and the sync depend on, so the benchmark can put a naive one in its place.
 */

import type { RetryPolicy } from '../../platform/dynamodb/backoff';
import type { ReadCost } from '../../platform/dynamodb/capacity';
import type { MeteredQueryTarget } from '../../platform/dynamodb/metered-query';
import type { ReadClient } from '../../platform/dynamodb/read-client';
import type { SearchEntry } from '../answers/search/search-entry';
import { type ChangeFeedReader, createChangeFeedReader } from '../change-feed/reader';
import type { ListedVacancy } from '../schema/vacancy-item';
import { type SummaryRead, SummaryReader } from '../store/summary-reader';
import {
  countActiveEntries,
  type PageQuery,
  readPageEntries,
  readSearchEntries,
} from './active-index-reader';
import {
  ITEM_VIEWS,
  type ItemReaderTarget,
  readItem,
  readItems,
  type ShownItem,
  type SyncedItem,
} from './item-reader';

/** A page of a listing. */
export interface VacancyPage extends ReadCost {
  /** The page's vacancies, in listing order (newest first, then larger id first). */
  readonly vacancies: ListedVacancy[];
  /** The order keys of the page's first and last vacancies (where its links' cursors start); absent when empty. */
  readonly first?: Uint8Array;
  readonly last?: Uint8Array;
  /** Whether more vacancies match beyond the page, in the direction it was read (older, or newer for a cursor to newer ones). */
  readonly more: boolean;
  /** Items the index named for this vendor that belong to another: never shown, always worth an alarm. */
  readonly foreignItems: number;
}

/** Where the repository reads, and how. */
export interface VacancyRepositoryOptions {
  readonly tableName: string;
  /** The vendors table, where the vendors' summaries are. */
  readonly vendorsTable: string;
  /** Index entries per Query call, at most (`MeteredQueryTarget`); tests set it low. */
  readonly queryPageSize?: number;
  readonly batchGetRetry?: RetryPolicy;
  /** Waits between BatchGetItem retries; replaceable so tests need not wait. */
  readonly sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/** Reads of the vacancy listing and of a sync: the change feed's reads (`domain/change-feed/reader.ts`) and the rest. */
export interface VacancyRepository extends ChangeFeedReader {
  /** A page of a vendor's listable vacancies matching the filters. */
  readPage(query: PageQuery): Promise<VacancyPage>;
  /** How many of a vendor's vacancies are listable and match the filters, counted on the index (the slow, exact way). */
  countActive(query: Omit<PageQuery, 'start' | 'limit'>): Promise<ReadCost & { readonly total: number }>;
  /** Every entry of the vendor's search index, newest first (docs/design.md#search). */
  readSearchEntries(
    vendorId: string,
    signal?: AbortSignal,
  ): Promise<ReadCost & { readonly entries: SearchEntry[] }>;
  /** Items by id as a listing shows them, the vendor's only, in the order of `ids` (missing ones left out). */
  readListed(
    vendorId: string,
    ids: readonly number[],
    signal?: AbortSignal,
  ): Promise<ReadCost & { readonly items: ListedVacancy[]; readonly foreignItems: number }>;
  /** The vendor's summary, read strongly; undefined when it has none. */
  readSummary(vendorId: string, signal?: AbortSignal): Promise<SummaryRead>;
  /** Items by id, as a sync shows them, each checked to be the vendor's (in any order; missing ones left out). */
  readItems(
    vendorId: string,
    ids: readonly number[],
    signal?: AbortSignal,
  ): Promise<ReadCost & { readonly items: SyncedItem[]; readonly foreignItems: number }>;
  /** One vacancy by id, if it is the vendor's, whatever its status: one GetItem. */
  readVacancy(
    vendorId: string,
    id: number,
    signal?: AbortSignal,
  ): Promise<ReadCost & { readonly item: ShownItem | undefined }>;
}

const DEFAULT_BATCH_GET_RETRY: RetryPolicy = { maxStalls: 4, baseDelayMs: 25, maxDelayMs: 800 };

/**
 * The repository over DynamoDB. A page is one Query on the narrow, sparse active index, then one BatchGetItem of
 * the page's items; counting the whole index is a separate read, for when the vendor's summary cannot be trusted.
 */
export function createVacancyRepository(
  client: ReadClient,
  options: VacancyRepositoryOptions,
): VacancyRepository {
  const index: MeteredQueryTarget = {
    client,
    tableName: options.tableName,
    queryPageSize: options.queryPageSize,
  };
  const items: ItemReaderTarget = {
    client,
    tableName: options.tableName,
    retry: options.batchGetRetry ?? DEFAULT_BATCH_GET_RETRY,
    sleep: options.sleep,
  };
  const summaries = new SummaryReader(client, options.vendorsTable);
  const changes = createChangeFeedReader(client, {
    tableName: options.tableName,
    queryPageSize: options.queryPageSize,
    summaries,
  });

  return {
    readChanges: changes.readChanges,
    countChanges: changes.countChanges,
    // Straight from the vendors table: the listing's summary is not the change feed's business.
    readSummary: (vendorId, signal) => summaries.read(vendorId, signal),
    async readPage(query) {
      const entries = await readPageEntries(index, query);
      if (entries.page.length === 0) {
        return {
          vacancies: [],
          more: entries.more,
          readUnits: entries.readUnits,
          calls: entries.calls,
          foreignItems: 0,
        };
      }
      const read = await readItems<ListedVacancy>(
        items,
        query.vendorId,
        entries.page.map(({ id }) => id),
        ITEM_VIEWS.listed,
        query.signal,
      );
      return {
        vacancies: read.items,
        first: (entries.page[0] as { order: Uint8Array }).order,
        last: (entries.page.at(-1) as { order: Uint8Array }).order,
        more: entries.more,
        readUnits: entries.readUnits + read.readUnits,
        calls: entries.calls + read.calls,
        foreignItems: read.foreignItems,
      };
    },
    countActive: (query) => countActiveEntries(index, query),
    readSearchEntries: (vendorId, signal) => readSearchEntries(index, vendorId, signal),
    readListed: (vendorId, ids, signal) =>
      readItems<ListedVacancy>(items, vendorId, ids, ITEM_VIEWS.listed, signal),
    readItems: (vendorId, ids, signal) =>
      readItems<SyncedItem>(items, vendorId, ids, ITEM_VIEWS.synced, signal),
    readVacancy: (vendorId, id, signal) => readItem(items, vendorId, id, signal),
  };
}
