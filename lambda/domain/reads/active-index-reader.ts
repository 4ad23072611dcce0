/**
 * Reads of the active index (docs/design.md#how-a-listing-reads): the entries of one page — from the top, an offset
 * or a cursor's position — reading only as many as the page needs (one more, to know whether another follows), and
 * the exact count of what matches, for when the vendor's summary cannot be trusted.
 */

import type { ReadCost } from '../../platform/dynamodb/capacity';
import { collectQuery, countQuery, type MeteredQueryTarget } from '../../platform/dynamodb/metered-query';
import type { ListingCursor, PageStart } from '../answers/cursor';
import { SEARCH_ENTRY_ATTRIBUTES, type SearchEntry, toSearchEntry } from '../answers/search/search-entry';
import { activeIndexCondition, type OrderBound, type VacancyFilters } from '../schema/active-index';
import { ITEM, SEARCH_INDEX } from '../schema/tables';

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

/** An entry of the active index as a page reads it: the item's id and its position in the order. */
export interface PageEntry {
  readonly id: number;
  readonly order: Uint8Array;
}

/** The entries of a page, in listing order, and whether more match beyond it in the direction it was read. */
export interface PageEntries extends ReadCost {
  readonly page: PageEntry[];
  readonly more: boolean;
}

/** How much more of the index each further Query call of a page reads, when the filters left too few. */
const GROWTH = 4;
/**
 * Index entries a Query call reads at least: DynamoDB bills a call by the 4 KB it reads, rounded up, so about 88
 * entries of some 46 bytes cost what one does — and reading them spares a filtered page further calls.
 */
const ENTRIES_PER_READ = 88;

/** The bound of the index a cursor reads, and in which order (listing order is descending). */
function cursorBound(cursor: ListingCursor): { bound: OrderBound; descending: boolean } {
  const older = cursor.direction === 'older';
  const comparison = older ? (cursor.inclusive ? '<=' : '<') : cursor.inclusive ? '>=' : '>';
  return { bound: { comparison, position: cursor.position }, descending: older };
}

/** The index entries of a page (ids and order keys), in listing order, and whether more follow. */
export async function readPageEntries(target: MeteredQueryTarget, query: PageQuery): Promise<PageEntries> {
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
  } = await collectQuery(
    target,
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
    (item): PageEntry => ({ id: item.id as number, order: item[ITEM.order] as Uint8Array }),
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

/** How many of a vendor's vacancies are listable and match the filters, counted on the index. */
export function countActiveEntries(
  target: MeteredQueryTarget,
  query: Omit<PageQuery, 'start' | 'limit'>,
): Promise<ReadCost & { total: number }> {
  return countQuery(target, activeIndexCondition(query.vendorId, query.filters, query.today), query.signal);
}

/**
 * Every entry of a vendor's search index, newest first, in one pass (docs/design.md#search): what a function holds to
 * answer search, filters by code and facets. Its deadlines are not filtered here — the held entries serve the next
 * days too.
 */
export async function readSearchEntries(
  target: MeteredQueryTarget,
  vendorId: string,
  signal: AbortSignal | undefined,
): Promise<ReadCost & { entries: SearchEntry[] }> {
  const { items, readUnits, calls } = await collectQuery(
    target,
    {
      IndexName: SEARCH_INDEX.name,
      ScanIndexForward: false,
      KeyConditionExpression: '#vendor = :vendor',
      ProjectionExpression: SEARCH_ENTRY_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
      ExpressionAttributeNames: {
        '#vendor': SEARCH_INDEX.partitionKey,
        ...Object.fromEntries(SEARCH_ENTRY_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
      },
      ExpressionAttributeValues: { ':vendor': vendorId },
    },
    signal,
    Number.POSITIVE_INFINITY,
    // As much as DynamoDB returns a call (1 MB), unless the target sets a page size.
    () => MAX_QUERY_LIMIT,
    toSearchEntry,
  );
  return { entries: items, readUnits, calls };
}

/** A Query's `Limit` that never binds before DynamoDB's 1 MB a call does. */
const MAX_QUERY_LIMIT = 1_000_000;
