import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ACTIVE_INDEX_NAME, ACTIVE_INDEX_ATTRIBUTES as INDEX } from '../../lib/tables';
import { batchGetItems, capacityUnits, type RetryPolicy } from '../shared/dynamodb';
import type { ListedVacancy, VacancyFilters } from './types';

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
}

/** Retries of `UnprocessedKeys` in BatchGetItem: attempts in all, and full-jitter backoff bounds. */
export type BatchGetRetry = RetryPolicy;

/** Where the repository reads, and how. */
export interface VacancyRepositoryOptions {
  readonly tableName: string;
  /**
   * Index entries per Query call. Absent: DynamoDB's own limit (1 MB a call). Tests set it low so that a
   * listing spans several Query pages (`LastEvaluatedKey`) on a small data set.
   */
  readonly queryPageSize?: number;
  readonly batchGetRetry?: BatchGetRetry;
  /** Waits between BatchGetItem retries; replaceable so tests need not wait. */
  readonly sleep?: (milliseconds: number) => Promise<void>;
}

/** Reads of the vacancy listing. */
export interface VacancyRepository {
  /** Total and page of a vendor's active, unexpired vacancies matching the filters. */
  listActive(query: ActiveVacancyQuery): Promise<ActiveVacancyPage>;
}

const DEFAULT_BATCH_GET_RETRY: BatchGetRetry = { maxAttempts: 5, baseDelayMs: 25, maxDelayMs: 800 };

/** The attributes of a vacancy object; BatchGetItem reads no others. */
const LISTED_ATTRIBUTES: readonly (keyof ListedVacancy)[] = [
  'id',
  'title',
  'url',
  'description',
  'requirements',
  'responsibilities',
  'category',
  'city',
  'type',
  'salary_min',
  'salary_max',
  'salary',
  'salary_type',
  'deadline',
  'created_at',
];
// Several of these (`type`, `url`, `description`…) may be DynamoDB reserved words: every name goes through a placeholder.
const LISTED_PROJECTION = {
  ProjectionExpression: LISTED_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(LISTED_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
};

/**
 * KeyCondition and FilterExpression of a Query on the active index for a vendor, filters and day (exported for
 * the benchmark's naive baseline, which filters the same way).
 */
export function indexCondition(vendorId: string, filters: VacancyFilters, today: string) {
  const names: Record<string, string> = { '#vendor': INDEX.vendorId, '#deadline': INDEX.deadline };
  const values: Record<string, string | number> = { ':vendor': vendorId, ':today': today };
  const conditions = ['#deadline >= :today'];
  if (filters.type !== undefined) {
    names['#type'] = INDEX.type;
    values[':type'] = filters.type;
    conditions.push('#type = :type');
  }
  if (filters.experienceMin !== undefined) {
    names['#expMin'] = INDEX.experienceMin;
    values[':expMin'] = filters.experienceMin;
    conditions.push('#expMin >= :expMin');
  }
  if (filters.experienceMax !== undefined) {
    // An open-ended vacancy (no maximum stored) never satisfies an upper bound.
    names['#expMax'] = INDEX.experienceMax;
    values[':expMax'] = filters.experienceMax;
    conditions.push('attribute_exists(#expMax) AND #expMax <= :expMax');
  }
  return {
    KeyConditionExpression: '#vendor = :vendor',
    FilterExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * The listing's data access (DESIGN "How a listing request reads"). One descending Query on the narrow,
 * sparse active index walks every matching entry once: it counts them for `total` and picks the ids at the
 * page's positions (after the page, it asks for counts only). One BatchGetItem then reads the page's items.
 * Full items are never read for counting, and nothing is scanned.
 */
export function createVacancyRepository(
  client: DynamoDBDocumentClient,
  options: VacancyRepositoryOptions,
): VacancyRepository {
  const { tableName, queryPageSize } = options;
  const retry = options.batchGetRetry ?? DEFAULT_BATCH_GET_RETRY;

  async function pageIds(query: ActiveVacancyQuery) {
    const condition = indexCondition(query.vendorId, query.filters, query.today);
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
          IndexName: ACTIVE_INDEX_NAME,
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

  async function fetchItems(vendorId: string, ids: readonly number[]) {
    const { items, readUnits, calls } = await batchGetItems(
      client,
      tableName,
      ids.map((id) => ({ vendorId, id })),
      { retry, projection: LISTED_PROJECTION, ...(options.sleep && { sleep: options.sleep }) },
    );
    // BatchGetItem answers in any order; a vacancy deleted since the Query is simply left out.
    const found = new Map(items.map((item) => [item.id as number, item as unknown as ListedVacancy]));
    const vacancies = ids.flatMap((id) => found.get(id) ?? []);
    return { vacancies, readUnits, calls };
  }

  return {
    async listActive(query) {
      const index = await pageIds(query);
      if (index.ids.length === 0) {
        return { total: index.total, vacancies: [], readUnits: index.readUnits, calls: index.calls };
      }
      const items = await fetchItems(query.vendorId, index.ids);
      return {
        total: index.total,
        vacancies: items.vacancies,
        readUnits: index.readUnits + items.readUnits,
        calls: index.calls + items.calls,
      };
    },
  };
}
