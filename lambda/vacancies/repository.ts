import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { batchGetItems, capacityUnits, type RetryPolicy } from '../dynamodb/batch-get';
import { underDeadline } from '../dynamodb/deadline';
import { activeIndexCondition, type OrderBound, type VacancyFilters } from '../schema/active-index';
import { changeRange } from '../schema/change-index';
import { readSummary, type Summary, summaryItemKey } from '../schema/summary';
import { ITEM } from '../schema/tables';
import { type StoredStatus, VACANCY_FIELDS } from '../schema/vacancy';
import type { ListedVacancy, StoredItem } from '../schema/vacancy-item';
import type { ListingCursor } from './cursor';

/** Where a page starts: a position in the listing's order (an offset from its top), or a cursor. */
export type PageStart = { readonly offset: number } | { readonly cursor: ListingCursor };

/** One page read: whose vacancies, which filters, where, how many. */
export interface PageQuery {
  readonly vendorId: string;
  readonly filters: VacancyFilters;
  /** Today, `YYYY-MM-DD` in the service time zone: a vacancy whose deadline is earlier is not listed. */
  readonly today: string;
  readonly start: PageStart;
  /** Vacancies per page. */
  readonly limit: number;
  /** The request's deadline: every call is aborted when it is spent. */
  readonly signal?: AbortSignal | undefined;
}

/** What a read cost. */
export interface ReadCost {
  /** Read capacity units consumed, summed over every call (as DynamoDB reports them). */
  readonly readUnits: number;
  /** DynamoDB calls made. */
  readonly calls: number;
}

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
  /**
   * Index entries per Query call, at most. Absent: as many as a page needs (and DynamoDB's own limit, 1 MB a call).
   * Tests set it low so that a page spans several Query calls (`LastEvaluatedKey`) on a small data set.
   */
  readonly queryPageSize?: number;
  readonly batchGetRetry?: RetryPolicy;
  /** Waits between BatchGetItem retries; replaceable so tests need not wait. */
  readonly sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/** A change of a vendor's, as the change index holds it: the item's id, its status then, and its change key. */
export interface ChangeEntry {
  readonly id: number;
  readonly status: StoredStatus;
  readonly change: Uint8Array;
}

/** A range of a vendor's change index, both ends included (change keys). */
export interface ChangeRange {
  readonly vendorId: string;
  readonly from: Uint8Array;
  readonly to: Uint8Array;
  readonly signal?: AbortSignal | undefined;
}

/** An item as a sync reads it: the vacancy object's fields, the vendor, the status and when it changed. */
export type SyncedItem = Partial<ListedVacancy> &
  Pick<StoredItem, 'id' | 'status' | typeof ITEM.vendor | typeof ITEM.updatedAt>;

/** Reads of the vacancy listing (docs/design.md#how-a-listing-reads) and of a sync (#incremental-sync). */
export interface VacancyRepository {
  /** A page of a vendor's listable vacancies matching the filters. */
  readPage(query: PageQuery): Promise<VacancyPage>;
  /** How many of a vendor's vacancies are listable and match the filters, counted on the index (the slow, exact way). */
  countActive(query: Omit<PageQuery, 'start' | 'limit'>): Promise<ReadCost & { readonly total: number }>;
  /** The vendor's summary, read strongly; undefined when it has none. */
  readSummary(vendorId: string, signal?: AbortSignal): Promise<ReadCost & { readonly summary?: Summary }>;
  /** The first `limit` changes of a range of the change index, oldest first, and whether more follow. */
  readChanges(
    range: ChangeRange & { readonly limit: number },
  ): Promise<ReadCost & { readonly entries: ChangeEntry[]; readonly more: boolean }>;
  /** How many changes a range of the change index holds. */
  countChanges(range: ChangeRange): Promise<ReadCost & { readonly total: number }>;
  /** Items by id, as a sync shows them, each checked to be the vendor's (in any order; missing ones left out). */
  readItems(
    vendorId: string,
    ids: readonly number[],
    signal?: AbortSignal,
  ): Promise<ReadCost & { readonly items: SyncedItem[]; readonly foreignItems: number }>;
}

const DEFAULT_BATCH_GET_RETRY: RetryPolicy = { maxStalls: 4, baseDelayMs: 25, maxDelayMs: 800 };
/** How much more of the index each further Query call of a page reads, when the filters left too few. */
const GROWTH = 4;
/**
 * Index entries a Query call reads at least: DynamoDB bills a call by the 4 KB it reads, rounded up, so about 88
 * entries of some 46 bytes cost what one does — and reading them spares a filtered page further calls.
 */
const ENTRIES_PER_READ = 88;

/** A ProjectionExpression of attributes; several (`type`, `url`, `status`, …) are DynamoDB reserved words. */
const projection = (attributes: readonly string[]) => ({
  ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
});
/** What a listing reads of an item: the vacancy object's fields and the owner. */
const LISTED_PROJECTION = projection([...VACANCY_FIELDS, ITEM.vendor]);
/** What a sync reads of an item: that, its status and when it changed. */
const SYNCED_PROJECTION = projection([...VACANCY_FIELDS, ITEM.vendor, 'status', ITEM.updatedAt]);

/** The bound of the index a cursor reads, and in which order (listing order is descending). */
function cursorBound(cursor: ListingCursor): { bound: OrderBound; descending: boolean } {
  const older = cursor.direction === 'older';
  const comparison = older ? (cursor.inclusive ? '<=' : '<') : cursor.inclusive ? '>=' : '>';
  return { bound: { comparison, position: cursor.position }, descending: older };
}

/**
 * The listing's data access (docs/design.md#how-a-listing-reads). A page is one Query on the narrow, sparse active
 * index — from the top, or from a cursor's position — that reads only as many entries as the page needs (one
 * more, to know whether another page follows), then one BatchGetItem of the page's items, each checked to belong
 * to the vendor. Counting the whole index is a separate read, for when the vendor's summary cannot be trusted.
 * Nothing is scanned.
 */
export function createVacancyRepository(
  client: DynamoDBDocumentClient,
  options: VacancyRepositoryOptions,
): VacancyRepository {
  const { tableName, queryPageSize } = options;
  const retry = options.batchGetRetry ?? DEFAULT_BATCH_GET_RETRY;
  const capped = (limit: number) => (queryPageSize === undefined ? limit : Math.min(limit, queryPageSize));

  /**
   * Runs a Query of an index call by call, following `LastEvaluatedKey`, while `more` (given each answer) says to
   * go on; `input` gives each call's parameters. Adds up what the calls cost.
   */
  async function queryPages(
    input: () => Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'ReturnConsumedCapacity'>,
    signal: AbortSignal | undefined,
    more: (output: QueryCommandOutput) => boolean,
  ): Promise<ReadCost> {
    let readUnits = 0;
    let calls = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          ...input(),
          ExclusiveStartKey: startKey,
          ReturnConsumedCapacity: 'TOTAL',
        }),
        underDeadline(signal),
      );
      calls += 1;
      readUnits += capacityUnits(output.ConsumedCapacity);
      startKey = output.LastEvaluatedKey;
      if (!more(output)) break;
    } while (startKey);
    return { readUnits, calls };
  }

  /**
   * The first `wanted` entries a Query of an index selects, or all when fewer; each call reads `limit(found so
   * far)` entries at most.
   */
  async function collect<T>(
    input: Omit<QueryCommandInput, 'TableName'>,
    signal: AbortSignal | undefined,
    wanted: number,
    limit: (found: number) => number,
    map: (entry: Record<string, unknown>) => T,
  ): Promise<ReadCost & { items: T[] }> {
    const items: T[] = [];
    const cost = await queryPages(
      () => ({ ...input, Limit: capped(limit(items.length)) }),
      signal,
      (output) => {
        items.push(...(output.Items ?? []).map(map));
        return items.length < wanted;
      },
    );
    return { items, ...cost };
  }

  /** How many entries a Query of an index selects (after its filter), to the end. */
  async function count(
    condition: Omit<QueryCommandInput, 'TableName'>,
    signal: AbortSignal | undefined,
  ): Promise<ReadCost & { total: number }> {
    let total = 0;
    const cost = await queryPages(
      () => ({ ...condition, Select: 'COUNT', ...(queryPageSize !== undefined && { Limit: queryPageSize }) }),
      signal,
      (output) => {
        total += output.Count ?? 0;
        return true;
      },
    );
    return { total, ...cost };
  }

  /** The index entries of a page (ids and order keys), in listing order, and whether more follow. */
  async function pageEntries(query: PageQuery) {
    const { bound, descending } =
      'cursor' in query.start ? cursorBound(query.start.cursor) : { bound: undefined, descending: true };
    const skip = 'offset' in query.start ? query.start.offset : 0;
    const condition = activeIndexCondition(query.vendorId, query.filters, query.today, bound);
    // The page, one more to know whether another follows, and those an offset skips.
    const wanted = skip + query.limit + 1;
    const {
      items: entries,
      readUnits,
      calls,
    } = await collect(
      {
        ScanIndexForward: !descending,
        ...condition,
        ProjectionExpression: '#id, #o',
        ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#id': 'id', '#o': ITEM.order },
      },
      query.signal,
      wanted,
      // At first what the page needs; when the filters passed too few, more of the index each time.
      (found) =>
        found === 0
          ? Math.max(wanted, ENTRIES_PER_READ)
          : Math.max((wanted - found) * GROWTH, ENTRIES_PER_READ),
      (item) => ({ id: item.id as number, order: item[ITEM.order] as Uint8Array }),
    );
    const page = entries.slice(skip, skip + query.limit);
    return {
      // A page read towards newer vacancies comes oldest first: put back in listing order.
      page: descending ? page : page.reverse(),
      more: entries.length > skip + query.limit,
      readUnits,
      calls,
    };
  }

  /** Items by id, the vendor's only, in the order of `ids` (a vacancy gone since the Query is left out). */
  async function fetchItems<T extends { readonly id: number; readonly [ITEM.vendor]?: string }>(
    vendorId: string,
    ids: readonly number[],
    signal: AbortSignal | undefined,
    attributes: ReturnType<typeof projection>,
  ) {
    const { items, readUnits, calls } = await batchGetItems(
      client,
      tableName,
      ids.map((id) => ({ id })),
      {
        retry,
        projection: attributes,
        ...(options.sleep && { sleep: options.sleep }),
        ...(signal && { signal }),
      },
    );
    // BatchGetItem answers in any order; one that is not the vendor's is left out (the indexes are keyed by
    // vendor, so that would be a bug: defence in depth).
    const found = new Map<number, T>();
    let foreignItems = 0;
    for (const item of items as unknown as T[]) {
      if (item[ITEM.vendor] === vendorId) found.set(item.id, item);
      else foreignItems += 1;
    }
    return { items: ids.flatMap((id) => found.get(id) ?? []), readUnits, calls, foreignItems };
  }

  return {
    async readPage(query) {
      const index = await pageEntries(query);
      const edges = { first: index.page[0]?.order, last: index.page.at(-1)?.order };
      const bounds = {
        ...(edges.first && { first: edges.first }),
        ...(edges.last && { last: edges.last }),
      };
      if (index.page.length === 0) {
        return {
          vacancies: [],
          more: index.more,
          readUnits: index.readUnits,
          calls: index.calls,
          foreignItems: 0,
        };
      }
      const items = await fetchItems<ListedVacancy>(
        query.vendorId,
        index.page.map(({ id }) => id),
        query.signal,
        LISTED_PROJECTION,
      );
      return {
        vacancies: items.items,
        ...bounds,
        more: index.more,
        readUnits: index.readUnits + items.readUnits,
        calls: index.calls + items.calls,
        foreignItems: items.foreignItems,
      };
    },

    async countActive(query) {
      return count(activeIndexCondition(query.vendorId, query.filters, query.today), query.signal);
    },

    async readChanges(range) {
      const { items, readUnits, calls } = await collect(
        changeRange(range.vendorId, range.from, range.to),
        range.signal,
        range.limit + 1,
        (found) => range.limit + 1 - found,
        (entry): ChangeEntry => ({
          id: entry.id as number,
          status: entry.status as StoredStatus,
          change: entry[ITEM.change] as Uint8Array,
        }),
      );
      return { entries: items.slice(0, range.limit), more: items.length > range.limit, readUnits, calls };
    },

    async countChanges(range) {
      return count(changeRange(range.vendorId, range.from, range.to), range.signal);
    },

    async readItems(vendorId, ids, signal) {
      if (ids.length === 0) return { items: [], readUnits: 0, calls: 0, foreignItems: 0 };
      return fetchItems<SyncedItem>(vendorId, ids, signal, SYNCED_PROJECTION);
    },

    async readSummary(vendorId, signal) {
      const output = await client.send(
        new GetCommand({
          TableName: options.vendorsTable,
          Key: summaryItemKey(vendorId),
          ConsistentRead: true,
          ReturnConsumedCapacity: 'TOTAL',
        }),
        underDeadline(signal),
      );
      return {
        ...(output.Item && { summary: readSummary(output.Item) }),
        readUnits: capacityUnits(output.ConsumedCapacity),
        calls: 1,
      };
    },
  };
}
