/**
 * Read cost and latency of the listing, per request, next to the naive baseline — and the size of an index
 * entry, the figure the read cost grows with.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { lastPage } from '../lambda/domain/answers/pages';
import { type AnswerSettings, answerSettings } from '../lambda/domain/answers/settings';
import { parseImportFile } from '../lambda/domain/import/file';
import { importVacancies } from '../lambda/domain/import/import';
import { authorizerContext } from '../lambda/domain/keys/context';
import { createVacancyRepository, type VacancyRepository } from '../lambda/domain/reads/repository';
import { type TableNames, VACANCIES_TABLE } from '../lambda/domain/schema/tables';
import { MCP_PATH, VACANCY_RESOURCE } from '../lambda/domain/service/routes';
import { functionConfiguration, functionEnvironment } from '../lambda/domain/settings/environment';
import { INDEX_SETTLE_MS } from '../lambda/domain/settings/recovery-waits';
import { recountSummary } from '../lambda/domain/store/recount';
import { createMcpHandler } from '../lambda/functions/mcp/factory';
import type { ListingResponse } from '../lambda/functions/vacancies/bodies';
import { createVacanciesHandler } from '../lambda/functions/vacancies/factory';
import { zoneClock } from '../lambda/platform/time/zone-clock';
import { createTableInput, createTables, localTableNames } from '../lib/create-tables';
import { lambdaContext } from '../lib/local/lambda-runtime';
import { listingEvent } from '../lib/local/proxy-event';
import { putVendor } from '../lib/ops/vendors';
import { DEFAULT_SETTINGS } from '../lib/settings';
import { dataSetItems, vacancyRecords } from '../testkit/dataset';
import { loadItems } from '../testkit/loader';
import { quietMetrics, silentLogger } from '../testkit/quiet-runtime';
import { type FeedBuildResult, measureFeedBuild } from './feeds';
import { indexEntries, itemSize } from './item-size';
import { createNaiveRepository } from './naive-repository';
import { measurePlaces, type PlacesResult } from './places';
import { percentile, round } from './stats';

/** The page size of every request measured: the deployed default. */
export const PER_PAGE = DEFAULT_SETTINGS.defaultPerPage;
export const FILTERS = 'type=1&experience_min=1';
const REQUESTS = 30;
const WARMUP = 3;
/** The zone the data set's times are read in (they carry offsets, so any zone gives the same instants). */
export const CLOCK = zoneClock('Asia/Baku');
/** When the data set's vacancies last changed (ms): a fixed instant, so that entry sizes do not vary by run. */

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
  /** Not measured for the largest vendors: a naive request would read every full item of the vendor. */
  naive: Side | null;
  rcu_ratio: number | null;
  latency_ratio_p50: number | null;
}

/** A whole walk by `next_page_url`, from page 1 to the end, next to the floor of reading each item once. */
export interface WalkResult {
  vacancies: number;
  per_page: number;
  pages: number;
  items: number;
  rcu: number;
  /** Half a unit per item of up to 4 KB: what reading each item once, eventually consistent, costs. */
  floor_rcu: number;
  ratio: number;
}

/** A sync: of a given number of changes (0: nothing changed since `updated_since`). */
export interface SyncResult {
  vacancies: number;
  changes: number;
  pages: number;
  rcu: number;
  calls: number;
  /** Half a unit per active item read, plus the change index entries counted and read (45 bytes each). */
  floor_rcu: number;
}

/** A poll of page 1 answered 304 (its `If-None-Match` the tag of the page as it is). */
export interface PollResult {
  vacancies: number;
  rcu: number;
  calls: number;
  p50_ms: number;
}

/** One vacancy by id (`GET /vendor/vacancies/{id}`): a 200, and a 304 to its tag. */
export interface VacancyReadResult {
  vacancies: number;
  rcu_200: number;
  rcu_304: number;
  calls: number;
  p50_ms: number;
}

/**
 * Page 1 with search's parameters (docs/design.md#search), next to the same page without them: on a warm function
 * (the vendor's search index held), on a cold one (its first request: the entries read once), and a poll.
 */
export interface SearchResult {
  vacancies: number;
  query: string;
  total: number;
  /** A warm function: the summary and the page's items. */
  warm_rcu: number;
  warm_calls: number;
  p50_ms: number;
  /** The same page without search's parameters (`FILTERS` alone). */
  without_rcu: number;
  /** A cold function's first request for the vendor: the vendor's search index entries, read once. */
  cold_rcu: number;
  cold_calls: number;
  /** A poll whose `If-None-Match` is the page's tag, on a warm function: 304. */
  poll_rcu: number;
}

/**
 * A `search_vacancies` call of the MCP server (docs/api.md#agents-mcp) next to the same listing request, each on a warm
 * function of its own: what each read (they answer from one code path, so the same).
 */
export interface McpReadResult {
  vacancies: number;
  /** The listing's query; the call's arguments are the same parameters as JSON. */
  query: string;
  listing_rcu: number;
  mcp_rcu: number;
  listing_calls: number;
  mcp_calls: number;
}

/** The MCP calls measured: page 1 with `FILTERS`, and a search with facets, as the listing's queries. */
export const MCP_CALLS = [
  { query: `${FILTERS}&page=1`, arguments: { type: 1, experience_min: 1, page: 1 } },
  {
    query: 'q=lead%20data&facets=type,category,city',
    arguments: { q: 'lead data', facets: ['type', 'category', 'city'] },
  },
] as const;

/**
 * The searches measured: filters by code and `q` with the filters of `FILTERS`, without and with facets; and the
 * workplace's filter and facet with pay and place included.
 */
export const SEARCHES = [
  `${FILTERS}&category=it,finance,sales&city=baku,ganja,sumgait&q=senior`,
  `${FILTERS}&category=it,finance,sales&city=baku,ganja,sumgait&q=senior&facets=type,category,city`,
  'q=lead%20data&facets=type,category,city',
  `${FILTERS}&workplace=hybrid,remote&facets=type,workplace&include=pay,workplace`,
] as const;

/**
 * The searches measured for a vendor with vacancies in several cities (`places.ts`): the city filter with the
 * locations and the city facet, as a career page's city menu asks; and a page filtered by type, experience, cities
 * and words, with every facet.
 */
export const PLACES_SEARCHES = [
  'city=ganja&include=locations&facets=city',
  `${FILTERS}&city=ganja,sumgait&q=senior&facets=type,category,city,workplace&include=locations`,
] as const;

/** Index entry sizes of a data set, by DynamoDB's rules: what a read of the index pays per vacancy. */
export interface IndexEntryResult {
  vacancies: number;
  vendor_id: string;
  /** The index: active (what a listing reads), changes (what a sync reads), expiring (what the expiry job reads). */
  index: string;
  mean_bytes: number;
  max_bytes: number;
}

/**
 * The settings of a function that answers as the listing does (`listing`, `mcp`), as deployed with the default
 * settings: through its environment and its check at cold start, the one configuration path.
 */
export function deployedListingSettings(name: 'listing' | 'mcp', tables: TableNames): AnswerSettings {
  return answerSettings(
    functionConfiguration(name, functionEnvironment(name, DEFAULT_SETTINGS, tables)).settings,
  );
}

/** A repository that adds up what its reads cost, until taken. */
export function metered(repository: VacancyRepository) {
  let cost = { readUnits: 0, calls: 0 };
  const add = <T extends { readUnits: number; calls: number }>(read: T): T => {
    cost.readUnits += read.readUnits;
    cost.calls += read.calls;
    return read;
  };
  return {
    repository: {
      readPage: async (query) => add(await repository.readPage(query)),
      countActive: async (query) => add(await repository.countActive(query)),
      readSummary: async (vendorId, signal) => add(await repository.readSummary(vendorId, signal)),
      readChanges: async (range) => add(await repository.readChanges(range)),
      countChanges: async (range) => add(await repository.countChanges(range)),
      readItems: async (vendorId, ids, signal) => add(await repository.readItems(vendorId, ids, signal)),
      readSearchEntries: async (vendorId, signal) =>
        add(await repository.readSearchEntries(vendorId, signal)),
      readListed: async (vendorId, ids, signal) => add(await repository.readListed(vendorId, ids, signal)),
      readVacancy: async (vendorId, id, signal) => add(await repository.readVacancy(vendorId, id, signal)),
    } satisfies VacancyRepository,
    /** What the reads since the last call cost. */
    take() {
      const taken = cost;
      cost = { readUnits: 0, calls: 0 };
      return taken;
    },
  };
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

/** What the read benchmark measures. */
export interface ReadOptions {
  /** Vendors' sizes (active vacancies). */
  readonly sizes: readonly number[];
  /** The naive baseline is measured up to this size. */
  readonly naiveUpTo: number;
  /** Whole walks by `next_page_url`: of which vendor, at which `per_page`. */
  readonly walks: readonly { readonly size: number; readonly perPage: number }[];
  /** Feeds are built (next to a walk of the listing at per_page 100) for the vendors of these sizes. */
  readonly feedSizes: readonly number[];
  /** Syncs are measured at this vendor's size: an empty one, and one of `syncChanges` changes. */
  readonly syncSize: number;
  readonly syncChanges: number;
  /** A vendor of this size with vacancies in several cities, and its one-city twin, after the others (`places.ts`). */
  readonly placesSize?: number;
}

/**
 * Loads vendors of each size into our tables — with their summaries, counted as the recount does — and into the
 * naive baseline's, then measures first, middle and last pages, unfiltered and filtered, on both sides (both must
 * give identical bodies, or the run fails); a poll answered 304; and whole walks by `next_page_url`.
 */
export async function measureReads(
  client: DynamoDBClient,
  documentClient: DynamoDBDocumentClient,
  options: ReadOptions,
): Promise<{
  reads: ReadResult[];
  entries: IndexEntryResult[];
  walks: WalkResult[];
  polls: PollResult[];
  vacancyReads: VacancyReadResult[];
  syncs: SyncResult[];
  searches: SearchResult[];
  feedBuilds: FeedBuildResult[];
  mcpReads: McpReadResult[];
  places: PlacesResult[];
}> {
  const tables = localTableNames('bench-');
  const naiveTable = 'bench-NaiveVacancies';
  await createTables(client, tables);
  // The naive baseline's table: the same keys and index, but the index projects ALL attributes.
  const naiveInput = createTableInput(VACANCIES_TABLE, naiveTable);
  for (const index of naiveInput.GlobalSecondaryIndexes ?? []) index.Projection = { ProjectionType: 'ALL' };
  await client.send(new CreateTableCommand(naiveInput));

  const ours = metered(
    createVacancyRepository(documentClient, { tableName: tables.vacancies, vendorsTable: tables.vendors }),
  );
  const naive = metered(createNaiveRepository(documentClient, naiveTable));
  const settings = deployedListingSettings('listing', tables);
  const handlerOf = (repository: VacancyRepository) =>
    createVacanciesHandler({
      repository,
      settings,
      logger: silentLogger(),
      metrics: quietMetrics('listing'),
    });
  const handlers = { ours: handlerOf(ours.repository), naive: handlerOf(naive.repository) };
  // The MCP server configured as deployed, on the same metered reads.
  const mcp = createMcpHandler({
    repository: ours.repository,
    settings: deployedListingSettings('mcp', tables),
    logger: silentLogger(),
    metrics: quietMetrics('mcp'),
  });
  const sides = { ours, naive };

  const reads: ReadResult[] = [];
  const entries: IndexEntryResult[] = [];
  const walks: WalkResult[] = [];
  const polls: PollResult[] = [];
  const vacancyReads: VacancyReadResult[] = [];
  const syncs: SyncResult[] = [];
  const searches: SearchResult[] = [];
  const feedBuilds: FeedBuildResult[] = [];
  const mcpReads: McpReadResult[] = [];
  let firstId = 1;
  for (const size of options.sizes) {
    const vendorId = `vendor-${size}`;
    const withNaive = size <= options.naiveUpTo;
    const vendorFirstId = firstId;
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
      withNaive ? loadItems(documentClient, naiveTable, items) : Promise.resolve(),
    ]);
    // The summary, as the writers would have left it; trusted once the index's settle window has passed.
    await recountSummary(vendorId, { client: documentClient, tables });
    await sleep(INDEX_SETTLE_MS);

    const authorizer = authorizerContext({ vendorId, company: vendorId, rateTier: 'standard' });
    const event = (query: string, headers?: ReadonlyMap<string, readonly string[]>, vacancyId?: number) =>
      listingEvent({
        query,
        authorizer,
        requestId: 'bench',
        domainName: 'api.example.com',
        path: vacancyId === undefined ? '/prod/vendor/vacancies' : `/prod/vendor/vacancies/${vacancyId}`,
        stage: 'prod',
        ...(headers && { headers }),
        ...(vacancyId !== undefined && { route: VACANCY_RESOURCE, vacancyId: String(vacancyId) }),
      });
    /** Answers a request `REQUESTS` times (after a warm-up): the body, what one answer cost, and its latency. */
    const measure = async (side: 'ours' | 'naive', request: ReturnType<typeof event>, status = 200) => {
      const handler = handlers[side];
      let answer = await handler(request, lambdaContext('bench'));
      for (let i = 1; i < WARMUP; i += 1) answer = await handler(request, lambdaContext('bench'));
      const times: number[] = [];
      let cost = sides[side].take();
      for (let i = 0; i < REQUESTS; i += 1) {
        const started = performance.now();
        const response = await handler(request, lambdaContext('bench'));
        times.push(performance.now() - started);
        if (response.statusCode !== status)
          throw new Error(`${side}: ${response.statusCode} ${response.body}`);
        cost = sides[side].take();
      }
      return {
        answer,
        side: {
          rcu: cost.readUnits,
          calls: cost.calls,
          p50_ms: round(percentile(times, 50)),
          p95_ms: round(percentile(times, 95)),
        },
      };
    };

    for (const filters of [null, FILTERS]) {
      const query = (page: number) => `${filters ? `${filters}&` : ''}page=${page}`;
      const first = JSON.parse((await handlers.ours(event(query(1)), lambdaContext('bench'))).body);
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
        const oursResult = await measure('ours', event(query(page)));
        const naiveResult = withNaive ? await measure('naive', event(query(page))) : undefined;
        // The baseline must answer exactly what ours answers, or the comparison means nothing.
        if (naiveResult && oursResult.answer.body !== naiveResult.answer.body)
          throw new Error(`Different answers for ${vendorId} page ${page} ${filters}`);
        reads.push({
          vacancies: size,
          page,
          page_label: label,
          filters,
          total: first.pagination.total,
          ours: oursResult.side,
          naive: naiveResult?.side ?? null,
          rcu_ratio: naiveResult ? round(naiveResult.side.rcu / oursResult.side.rcu, 1) : null,
          latency_ratio_p50: naiveResult ? round(naiveResult.side.p50_ms / oursResult.side.p50_ms, 1) : null,
        });
        process.stderr.write(`  ${size} ${label} page ${page}${filters ? ` (${filters})` : ''}: done\n`);
      }
    }

    // A poll of page 1 whose If-None-Match is the page's tag.
    const page1 = await handlers.ours(event('page=1'), lambdaContext('bench'));
    const etag = String(page1.headers?.ETag);
    const poll = await measure('ours', event('page=1', new Map([['If-None-Match', [etag]]])), 304);
    polls.push({ vacancies: size, rcu: poll.side.rcu, calls: poll.side.calls, p50_ms: poll.side.p50_ms });

    // One vacancy of page 1 by its id, and a poll of it with its tag.
    const id = (JSON.parse(page1.body) as { data: { id: number }[] }).data[0]?.id;
    if (id !== undefined) {
      const one = await measure('ours', event('', undefined, id));
      const tag = String(one.answer.headers?.ETag);
      const again = await measure('ours', event('', new Map([['If-None-Match', [tag]]]), id), 304);
      vacancyReads.push({
        vacancies: size,
        rcu_200: one.side.rcu,
        rcu_304: again.side.rcu,
        calls: one.side.calls,
        p50_ms: one.side.p50_ms,
      });
    }

    // Search, filters by code and facets: a cold function (a new handler holds nothing), then the warm one.
    const without = await measure('ours', event(`${FILTERS}&page=1`));
    for (const query of SEARCHES) {
      ours.take();
      const cold = await handlerOf(ours.repository)(event(query), lambdaContext('bench'));
      if (cold.statusCode !== 200) throw new Error(`${query}: ${cold.statusCode} ${cold.body}`);
      const coldCost = ours.take();
      const warm = await measure('ours', event(query));
      if (warm.answer.body !== cold.body)
        throw new Error(`${query}: the warm answer differs from the cold one`);
      const tag = String(warm.answer.headers?.ETag);
      const poll = await measure('ours', event(query, new Map([['If-None-Match', [tag]]])), 304);
      searches.push({
        vacancies: size,
        query: decodeURIComponent(query),
        total: (JSON.parse(cold.body) as ListingResponse).pagination.total,
        warm_rcu: warm.side.rcu,
        warm_calls: warm.side.calls,
        p50_ms: warm.side.p50_ms,
        without_rcu: without.side.rcu,
        cold_rcu: round(coldCost.readUnits, 1),
        cold_calls: coldCost.calls,
        poll_rcu: poll.side.rcu,
      });
    }
    process.stderr.write(`  ${size} searches: done\n`);

    // search_vacancies next to the same listing request, each function warm (its held entries read before).
    for (const call of MCP_CALLS) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_vacancies', arguments: call.arguments },
      });
      const mcpEvent = listingEvent({
        authorizer,
        requestId: 'bench',
        domainName: 'api.example.com',
        path: `/prod${MCP_PATH}`,
        stage: 'prod',
        route: MCP_PATH,
        headers: new Map([
          ['Content-Type', ['application/json']],
          ['Accept', ['application/json, text/event-stream']],
        ]),
        body,
      });
      await mcp(mcpEvent, lambdaContext('bench'));
      ours.take();
      const answer = await mcp(mcpEvent, lambdaContext('bench'));
      const mcpCost = ours.take();
      const result = (JSON.parse(answer.body) as { result?: { isError?: boolean } }).result;
      if (answer.statusCode !== 200 || !result || result.isError)
        throw new Error(`MCP ${call.query}: ${answer.statusCode} ${answer.body}`);
      const listed = await measure('ours', event(call.query));
      mcpReads.push({
        vacancies: size,
        query: decodeURIComponent(call.query),
        listing_rcu: listed.side.rcu,
        mcp_rcu: round(mcpCost.readUnits, 1),
        listing_calls: listed.side.calls,
        mcp_calls: mcpCost.calls,
      });
    }

    for (const walk of options.walks.filter((candidate) => candidate.size === size)) {
      walks.push(await measureWalk(handlers.ours, ours, event, size, walk.perPage));
      process.stderr.write(`  ${size} walk at per_page ${walk.perPage}: done\n`);
    }

    if (options.feedSizes.includes(size)) {
      // The listing pulled whole at per_page 100, then the vendor's feeds built from one walk of their own.
      const walk = await measureWalk(handlers.ours, ours, event, size, 100);
      feedBuilds.push(await measureFeedBuild(client, documentClient, tables, vendorId, CLOCK, walk));
      process.stderr.write(`  ${size} feed build: done\n`);
    }

    if (size === options.syncSize) {
      // Some vacancies changed through the import (their title), after `since`; then syncs from `since` and from
      // a moment when nothing has changed since.
      await putVendor(documentClient, tables.vendors, { vendorId, company: vendorId });
      const since = new Date().toISOString();
      const changed = vacancyRecords(vendorId, vendorFirstId, size, size)
        .slice(0, options.syncChanges)
        .map((record) => ({ ...record, title: `${record.title} (changed)` }));
      const report = await importVacancies(
        documentClient,
        tables,
        parseImportFile(changed.map((record) => JSON.stringify(record)).join('\n')),
        { clock: CLOCK },
      );
      if (report.imported !== options.syncChanges) throw new Error(`Changed ${report.imported} vacancies`);
      await sleep(INDEX_SETTLE_MS + 1_000);
      syncs.push(await measureSync(handlers.ours, ours, event, size, since, options.syncChanges));
      syncs.push(await measureSync(handlers.ours, ours, event, size, new Date().toISOString(), 0));
      process.stderr.write(`  ${size} syncs: done\n`);
    }
  }
  // After every other vendor, so that theirs are loaded as before: ids from where theirs end.
  const places =
    options.placesSize === undefined
      ? []
      : await measurePlaces(
          { documentClient, tables, handlerOf, metered: ours },
          options.placesSize,
          firstId,
          PLACES_SEARCHES,
        );
  return { reads, entries, walks, polls, vacancyReads, syncs, searches, feedBuilds, mcpReads, places };
}

/** Follows `next_page_url` from a first query to the end, handing each page's body on; the number of pages. */
async function followPages(
  handler: ReturnType<typeof createVacanciesHandler>,
  event: (query: string) => ReturnType<typeof listingEvent>,
  first: string,
  page: (body: ListingResponse) => void,
): Promise<number> {
  let pages = 0;
  for (let query: string | undefined = first; query !== undefined; pages += 1) {
    const response = await handler(event(query), lambdaContext('bench'));
    if (response.statusCode !== 200) throw new Error(`${query}: ${response.statusCode} ${response.body}`);
    const body = JSON.parse(response.body) as ListingResponse;
    page(body);
    const next = body.pagination.next_page_url;
    query = next ? new URL(next).search.slice(1) : undefined;
  }
  return pages;
}

/** Follows a sync from `since` to its end, and adds up what its pages cost; checks it gave `changes` changes. */
async function measureSync(
  handler: ReturnType<typeof createVacanciesHandler>,
  side: ReturnType<typeof metered>,
  event: (query: string) => ReturnType<typeof listingEvent>,
  size: number,
  since: string,
  changes: number,
): Promise<SyncResult> {
  side.take();
  let items = 0;
  const pages = await followPages(
    handler,
    event,
    `updated_since=${encodeURIComponent(since)}&per_page=100`,
    (body) => {
      items += body.data.length;
    },
  );
  if (items !== changes) throw new Error(`The sync gave ${items} changes of ${changes}`);
  const { readUnits, calls } = side.take();
  // Each change's entry, counted then read (about 45 bytes, half a unit per 4 KB), and each active item.
  const entryUnits = Math.ceil((changes * 45) / 4096) * 0.5;
  return {
    vacancies: size,
    changes,
    pages,
    rcu: round(readUnits, 1),
    calls,
    floor_rcu: changes === 0 ? 0 : changes * 0.5 + 2 * entryUnits,
  };
}

/**
 * Follows `next_page_url` from page 1 to the end and adds up what every page cost; checks that it met every
 * vacancy exactly once.
 */
async function measureWalk(
  handler: ReturnType<typeof createVacanciesHandler>,
  side: ReturnType<typeof metered>,
  event: (query: string) => ReturnType<typeof listingEvent>,
  size: number,
  perPage: number,
): Promise<WalkResult> {
  side.take();
  const seen = new Set<number>();
  let total = 0;
  const pages = await followPages(handler, event, `per_page=${perPage}`, (body) => {
    for (const vacancy of body.data) {
      if (seen.has(vacancy.id)) throw new Error(`The walk met vacancy ${vacancy.id} twice`);
      seen.add(vacancy.id);
    }
    total = body.pagination.total;
  });
  if (seen.size !== total) throw new Error(`The walk met ${seen.size} of ${total} vacancies`);
  const { readUnits } = side.take();
  const floor = seen.size * 0.5;
  return {
    vacancies: size,
    per_page: perPage,
    pages,
    items: seen.size,
    rcu: round(readUnits, 1),
    floor_rcu: floor,
    ratio: round(readUnits / floor, 2),
  };
}
