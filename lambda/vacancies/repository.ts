import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems, capacityUnits, type RetryPolicy } from '../dynamodb/batch-get';
import { underDeadline } from '../dynamodb/deadline';
import { activeIndexCondition, type VacancyFilters } from '../schema/active-index';
import { ITEM } from '../schema/tables';
import { VACANCY_FIELDS } from '../schema/vacancy';
import type { ListedVacancy } from '../schema/vacancy-item';

/** One listing read: whose vacancies, which filters, which slice of the ordered result. */
export interface ActiveVacancyQuery {
  readonly vendorId: string;
  readonly filters: VacancyFilters;
  /** Position (from 0) of the page's first vacancy in listing order. */
  readonly offset: number;
  /** Vacancies per page. */
  readonly limit: number;
  /** Today, `YYYY-MM-DD` in the service time zone: a vacancy whose deadline is earlier has expired. */
  readonly today: string;
  /** The request's deadline: every call is aborted when it is spent. */
  readonly signal?: AbortSignal;
}

/** The page of a listing read, with what it cost. */
export interface ActiveVacancyPage {
  /** Active vacancies of the vendor that match the filters, over all pages. */
  readonly total: number;
  /** The page's vacancies, in listing order (newest first, then larger id first). */
  readonly vacancies: ListedVacancy[];
  /** Read capacity units consumed, summed over every call (as DynamoDB reports them). */
  readonly readUnits: number;
  /** DynamoDB calls made. */
  readonly calls: number;
  /** Items the index named for this vendor that belong to another: never shown, always worth an alarm. */
  readonly foreignItems: number;
}

/** Where the repository reads, and how. */
export interface VacancyRepositoryOptions {
  readonly tableName: string;
  /**
   * Index entries per Query call. Absent: DynamoDB's own limit (1 MB a call). Tests set it low so that a
   * listing spans several Query pages (`LastEvaluatedKey`) on a small data set.
   */
  readonly queryPageSize?: number;
  readonly batchGetRetry?: RetryPolicy;
  /** Waits between BatchGetItem retries; replaceable so tests need not wait. */
  readonly sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/** Reads of the vacancy listing. */
export interface VacancyRepository {
  /** Total and page of a vendor's active, unexpired vacancies matching the filters. */
  listActive(query: ActiveVacancyQuery): Promise<ActiveVacancyPage>;
}

const DEFAULT_BATCH_GET_RETRY: RetryPolicy = { maxStalls: 4, baseDelayMs: 25, maxDelayMs: 800 };

// The vacancy object's fields and the owner. Several (`type`, `url`, …) are DynamoDB reserved words: every
// name goes through a placeholder.
const LISTED_ATTRIBUTES = [...VACANCY_FIELDS, ITEM.vendor] as const;
const LISTED_PROJECTION = {
  ProjectionExpression: LISTED_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(LISTED_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
};

/**
 * The listing's data access (docs/design.md#how-a-listing-reads). One descending Query on the narrow,
 * sparse active index walks every matching entry once: it counts them for `total` and picks the ids at the
 * page's positions (after the page, it asks for counts only). One BatchGetItem then reads the page's items,
 * each checked to belong to the vendor. Full items are never read for counting, and nothing is scanned.
 */
export function createVacancyRepository(
  client: DynamoDBDocumentClient,
  options: VacancyRepositoryOptions,
): VacancyRepository {
  const { tableName, queryPageSize } = options;
  const retry = options.batchGetRetry ?? DEFAULT_BATCH_GET_RETRY;

  async function pageIds(query: ActiveVacancyQuery) {
    const condition = activeIndexCondition(query.vendorId, query.filters, query.today);
    const end = query.offset + query.limit;
    const ids: number[] = [];
    let total = 0;
    let readUnits = 0;
    let calls = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const pagePassed = total >= end;
      const output = await client.send(
        new QueryCommand({
          TableName: tableName,
          ScanIndexForward: false,
          ...condition,
          ...(pagePassed
            ? { Select: 'COUNT' }
            : {
                ProjectionExpression: '#id',
                ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#id': 'id' },
              }),
          ...(queryPageSize !== undefined && { Limit: queryPageSize }),
          ExclusiveStartKey: startKey,
          ReturnConsumedCapacity: 'TOTAL',
        }),
        underDeadline(query.signal),
      );
      calls += 1;
      readUnits += capacityUnits(output.ConsumedCapacity);
      (output.Items ?? []).forEach((item, index) => {
        const position = total + index;
        if (position >= query.offset && position < end) ids.push(item.id as number);
      });
      total += output.Count ?? 0;
      startKey = output.LastEvaluatedKey;
    } while (startKey);
    return { ids, total, readUnits, calls };
  }

  async function fetchItems(vendorId: string, ids: readonly number[], signal: AbortSignal | undefined) {
    const { items, readUnits, calls } = await batchGetItems(
      client,
      tableName,
      ids.map((id) => ({ id })),
      {
        retry,
        projection: LISTED_PROJECTION,
        ...(options.sleep && { sleep: options.sleep }),
        ...(signal && { signal }),
      },
    );
    // BatchGetItem answers in any order; a vacancy deleted since the Query is simply left out, and so is one
    // that is not the vendor's (the index is keyed by vendor, so that would be a bug: defence in depth).
    const found = new Map<number, ListedVacancy>();
    let foreignItems = 0;
    for (const item of items as unknown as ListedVacancy[]) {
      if (item[ITEM.vendor] === vendorId) found.set(item.id, item);
      else foreignItems += 1;
    }
    const vacancies = ids.flatMap((id) => found.get(id) ?? []);
    return { vacancies, readUnits, calls, foreignItems };
  }

  return {
    async listActive(query) {
      const index = await pageIds(query);
      if (index.ids.length === 0) {
        return {
          total: index.total,
          vacancies: [],
          readUnits: index.readUnits,
          calls: index.calls,
          foreignItems: 0,
        };
      }
      const items = await fetchItems(query.vendorId, index.ids, query.signal);
      return {
        total: index.total,
        vacancies: items.vacancies,
        readUnits: index.readUnits + items.readUnits,
        calls: index.calls + items.calls,
        foreignItems: items.foreignItems,
      };
    },
  };
}
