/**
 * Read cost and latency of the listing, per request, next to the naive baseline — and the size of an index
 * entry, the figure the read cost grows with.
 */
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { authorizerContext } from '../lambda/auth/context';
import { VACANCIES_TABLE } from '../lambda/schema/tables';
import { expiredIfPast, toVacancyItem } from '../lambda/schema/vacancy-item';
import { zoneClock } from '../lambda/time/zone-clock';
import { listingConfigFromEnvironment } from '../lambda/vacancies/config';
import { createListingHandler } from '../lambda/vacancies/listing-handler';
import { lastPage } from '../lambda/vacancies/pagination';
import {
  type ActiveVacancyPage,
  createVacancyRepository,
  type VacancyRepository,
} from '../lambda/vacancies/repository';
import { createTableInput, createTables, localTableNames } from '../lib/create-tables';
import { functionEnvironment } from '../lib/function-environment';
import { lambdaContext, quietMetrics, silentLogger } from '../lib/local/lambda-runtime';
import { listingEvent } from '../lib/local/proxy-event';
import { validateVacancyRecord } from '../lib/ops/vacancy-record';
import { DEFAULT_SETTINGS } from '../lib/settings';
import { vacancyRecords } from './dataset';
import { indexEntries, itemSize } from './item-size';
import { loadItems } from './loader';
import { createNaiveRepository } from './naive-repository';
import { percentile, round } from './stats';

/** The page size of every request measured: the deployed default. */
export const PER_PAGE = DEFAULT_SETTINGS.defaultPerPage;
export const FILTERS = 'type=1&experience_min=1';
const REQUESTS = 30;
const WARMUP = 3;
/** The zone the data set's times are read in (they carry offsets, so any zone gives the same instants). */
export const CLOCK = zoneClock('Asia/Baku');
/** When the data set's vacancies last changed (ms): a fixed instant, so that entry sizes do not vary by run. */
const CHANGED_AT = Date.UTC(2026, 10, 1);

interface Side {
  rcu: number;
  calls: number;
  p50_ms: number;
  p95_ms: number;
}

export interface ReadResult {
  vacancies: number;
  page: number;
  page_label: string;
  filters: string | null;
  total: number;
  ours: Side;
  naive: Side;
  rcu_ratio: number;
  latency_ratio_p50: number;
}

/** Index entry sizes of a data set, by DynamoDB's rules: what a read of the index pays per vacancy. */
export interface IndexEntryResult {
  vacancies: number;
  vendor_id: string;
  /** The index: active (what a listing reads), changes (what a sync reads), expiring (what the expiry job reads). */
  index: string;
  mean_bytes: number;
  max_bytes: number;
}

/** A repository that remembers what its last listing cost. */
function metered(repository: VacancyRepository) {
  let last: ActiveVacancyPage | undefined;
  return {
    repository: {
      async listActive(query) {
        last = await repository.listActive(query);
        return last;
      },
    } satisfies VacancyRepository,
    last: () => last,
  };
}

/**
 * Import records as the service stores them: validated as an import would, and `expired` when active past their
 * deadline (what the import, or else the expiry job, records).
 */
export function storedItems(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const today = CLOCK.today(new Date());
  return records.map((input) => {
    const validated = validateVacancyRecord(input, CLOCK);
    if (!validated.ok) throw new Error(validated.reasons.join('; '));
    return toVacancyItem(expiredIfPast(validated.vacancy, today), CHANGED_AT) as unknown as Record<
      string,
      unknown
    >;
  });
}

/** The table items of a vendor's data set. */
export function dataSetItems(vendorId: string, firstId: number, active: number) {
  return storedItems(vacancyRecords(vendorId, firstId, active, active));
}

/** Sizes of the entries of some items in each index (of those in it), by index name. */
export function indexEntrySizes(items: readonly Record<string, unknown>[]): Map<string, number[]> {
  const sizes = new Map<string, number[]>(
    VACANCIES_TABLE.globalIndexes.map(({ indexName }) => [indexName, []]),
  );
  for (const item of items) {
    for (const [index, entry] of indexEntries(item)) sizes.get(index)?.push(itemSize(entry));
  }
  return sizes;
}

/**
 * Loads vendors of each size into our tables and the naive baseline's, then measures first, middle and last
 * pages, unfiltered and filtered, on both sides. Both must give identical bodies, or the run fails.
 */
export async function measureReads(
  client: DynamoDBClient,
  documentClient: DynamoDBDocumentClient,
  sizes: readonly number[],
): Promise<{ reads: ReadResult[]; entries: IndexEntryResult[] }> {
  const tables = localTableNames('bench-');
  const naiveTable = 'bench-NaiveVacancies';
  await createTables(client, tables);
  // The naive baseline's table: the same keys and index, but the index projects ALL attributes.
  const naiveInput = createTableInput(VACANCIES_TABLE, naiveTable);
  for (const index of naiveInput.GlobalSecondaryIndexes ?? []) index.Projection = { ProjectionType: 'ALL' };
  await client.send(new CreateTableCommand(naiveInput));

  const ours = metered(createVacancyRepository(documentClient, { tableName: tables.vacancies }));
  const naive = metered(createNaiveRepository(documentClient, naiveTable));
  // The listing configured as deployed with the default settings: the one configuration path.
  const settings = listingConfigFromEnvironment(functionEnvironment('listing', DEFAULT_SETTINGS, tables));
  const handlers = {
    ours: createListingHandler({
      repository: ours.repository,
      settings,
      logger: silentLogger(),
      metrics: quietMetrics('listing'),
    }),
    naive: createListingHandler({
      repository: naive.repository,
      settings,
      logger: silentLogger(),
      metrics: quietMetrics('listing'),
    }),
  };

  const reads: ReadResult[] = [];
  const entries: IndexEntryResult[] = [];
  let firstId = 1;
  for (const size of sizes) {
    const vendorId = `vendor-${size}`;
    const items = dataSetItems(vendorId, firstId, size);
    firstId += items.length;
    for (const [index, sizesOfEntries] of indexEntrySizes(items)) {
      entries.push({
        vacancies: size,
        vendor_id: vendorId,
        index,
        mean_bytes: round(sizesOfEntries.reduce((a, b) => a + b, 0) / sizesOfEntries.length, 1),
        max_bytes: Math.max(...sizesOfEntries),
      });
    }
    process.stderr.write(`loading ${items.length} vacancies of ${vendorId}…\n`);
    await Promise.all([
      loadItems(documentClient, tables.vacancies, items),
      loadItems(documentClient, naiveTable, items),
    ]);

    for (const filters of [null, FILTERS]) {
      const request = (page: number) => ({
        query: `${filters ? `${filters}&` : ''}page=${page}`,
        authorizer: authorizerContext({ vendorId, company: vendorId, rateTier: 'standard' }),
        requestId: 'bench',
        domainName: 'api.example.com',
        path: '/prod/vendor/vacancies',
        stage: 'prod',
      });
      const first = JSON.parse((await handlers.ours(listingEvent(request(1)), lambdaContext('bench'))).body);
      const last = lastPage(first.pagination.total, PER_PAGE);
      // A listing of a single page is first, middle and last at once: measured once, as "first".
      const pages = new Map<number, string>();
      for (const [page, label] of [
        [1, 'first'],
        [Math.ceil(last / 2), 'middle'],
        [last, 'last'],
      ] as const) {
        if (!pages.has(page)) pages.set(page, label);
      }
      for (const [page, label] of pages) {
        const event = listingEvent(request(page));
        const measure = async (side: 'ours' | 'naive'): Promise<{ side: Side; body: string }> => {
          const handler = handlers[side];
          let body = '';
          for (let i = 0; i < WARMUP; i += 1) body = (await handler(event, lambdaContext('bench'))).body;
          const times: number[] = [];
          for (let i = 0; i < REQUESTS; i += 1) {
            const started = performance.now();
            const response = await handler(event, lambdaContext('bench'));
            times.push(performance.now() - started);
            if (response.statusCode !== 200)
              throw new Error(`${side}: ${response.statusCode} ${response.body}`);
          }
          const cost = (side === 'ours' ? ours : naive).last();
          return {
            body,
            side: {
              rcu: cost?.readUnits ?? Number.NaN,
              calls: cost?.calls ?? Number.NaN,
              p50_ms: round(percentile(times, 50)),
              p95_ms: round(percentile(times, 95)),
            },
          };
        };
        const oursResult = await measure('ours');
        const naiveResult = await measure('naive');
        // The baseline must answer exactly what ours answers, or the comparison means nothing.
        if (oursResult.body !== naiveResult.body)
          throw new Error(`Different answers for ${vendorId} page ${page} ${filters}`);
        reads.push({
          vacancies: size,
          page,
          page_label: label,
          filters,
          total: first.pagination.total,
          ours: oursResult.side,
          naive: naiveResult.side,
          rcu_ratio: round(naiveResult.side.rcu / oursResult.side.rcu, 1),
          latency_ratio_p50: round(naiveResult.side.p50_ms / oursResult.side.p50_ms, 1),
        });
        process.stderr.write(`  ${size} ${label} page ${page}${filters ? ` (${filters})` : ''}: done\n`);
      }
    }
  }
  return { reads, entries };
}
