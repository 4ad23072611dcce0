/**
 * Many places (docs/api.md#many-places): the listing with the city filter, search and facets for a vendor some of
 * whose vacancies are in several cities, next to its one-city twin — the same records, every vacancy in its primary
 * city alone — on a warm function (the search entries held), a cold one (its first request reads them) and a poll.
 * The additional cities ride on the search index's `city` (docs/design.md#many-places), so the twin's cold read is
 * the figure to be within, and a warm page costs what a one-city page does.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { authorizerContext } from '../lambda/domain/keys/context';
import type { VacancyRepository } from '../lambda/domain/reads/repository';
import { SEARCH_INDEX, type TableNames } from '../lambda/domain/schema/tables';
import { INDEX_SETTLE_MS } from '../lambda/domain/settings/recovery-waits';
import { recountSummary } from '../lambda/domain/store/recount';
import type { ListingResponse } from '../lambda/functions/vacancies/bodies';
import type { createVacanciesHandler } from '../lambda/functions/vacancies/factory';
import { lambdaContext } from '../lib/local/lambda-runtime';
import { listingEvent } from '../lib/local/proxy-event';
import { inSeveralCities, storedItems, vacancyRecords } from '../testkit/dataset';
import { loadItems } from '../testkit/loader';
import { indexEntries, itemSize } from './item-size';
import { percentile, round } from './stats';

const REQUESTS = 30;
const WARMUP = 3;

/** One request for the vendor in several cities, next to its one-city twin. */
export interface PlacesResult {
  vacancies: number;
  /** How many of them are in more than one city. */
  in_several_cities: number;
  query: string;
  total: number;
  /** The city facet's counts added up: more than `total` when vacancies are in several cities. */
  city_counts: number | null;
  warm_rcu: number;
  warm_calls: number;
  p50_ms: number;
  /** A cold function's first request: the vendor's search index entries, read once, and the page. */
  cold_rcu: number;
  cold_calls: number;
  /** The same request of the one-city twin, on a cold function. */
  one_city_cold_rcu: number;
  /** A poll of the page (its tag in `If-None-Match`), on a warm function: 304. */
  poll_rcu: number;
  /** The search index's mean entry, with the additional cities and without them (the twin's). */
  entry_mean_bytes: number;
  one_city_entry_mean_bytes: number;
}

type Handler = ReturnType<typeof createVacanciesHandler>;

/** What the places benchmark is given: the reads benchmark's tables, handlers and metered reads. */
export interface PlacesTarget {
  readonly documentClient: DynamoDBDocumentClient;
  readonly tables: TableNames;
  /** A new function (a handler holding nothing) on the metered repository. */
  readonly handlerOf: (repository: VacancyRepository) => Handler;
  readonly metered: { readonly repository: VacancyRepository; take(): { readUnits: number; calls: number } };
}

/** The mean bytes of the search index's entries of some items. */
function searchEntryMean(items: readonly Record<string, unknown>[]): number {
  const sizes = items.flatMap((item) => {
    const entry = indexEntries(item).get(SEARCH_INDEX.name);
    return entry ? [itemSize(entry)] : [];
  });
  return round(sizes.reduce((sum, size) => sum + size, 0) / sizes.length, 1);
}

/**
 * Loads a vendor of `size` active vacancies with some in several cities, and its one-city twin, from `firstId` on
 * (ids of as many digits for both, so their entries differ by the cities alone), and measures each of `queries`.
 */
export async function measurePlaces(
  target: PlacesTarget,
  size: number,
  firstId: number,
  queries: readonly string[],
): Promise<PlacesResult[]> {
  const { documentClient, tables, handlerOf, metered } = target;
  // Vendor ids as long as the reads benchmark's (`vendor-10000`): an entry's bytes count the vendor id too.
  const places = `places-${size}`;
  const twin = `cities-${size}`;
  const placesRecords = inSeveralCities(vacancyRecords(places, firstId, size, size));
  const twinRecords = vacancyRecords(twin, firstId + placesRecords.length, size, size);
  const placesItems = storedItems(placesRecords);
  const twinItems = storedItems(twinRecords);
  process.stderr.write(`loading ${placesItems.length} vacancies of ${places} and of ${twin}…\n`);
  await loadItems(documentClient, tables.vacancies, [...placesItems, ...twinItems]);
  await recountSummary(places, { client: documentClient, tables });
  await recountSummary(twin, { client: documentClient, tables });
  await sleep(INDEX_SETTLE_MS);

  const event = (vendorId: string, query: string, headers?: ReadonlyMap<string, readonly string[]>) =>
    listingEvent({
      query,
      authorizer: authorizerContext({ vendorId, company: vendorId, rateTier: 'standard' }),
      requestId: 'bench',
      domainName: 'api.example.com',
      path: '/prod/vendor/vacancies',
      stage: 'prod',
      ...(headers && { headers }),
    });
  /** A cold function's first answer, and what it read. */
  const cold = async (request: ReturnType<typeof event>) => {
    metered.take();
    const answer = await handlerOf(metered.repository)(request, lambdaContext('bench'));
    if (answer.statusCode !== 200) throw new Error(`${answer.statusCode} ${answer.body}`);
    return { answer, cost: metered.take() };
  };
  /** A warm function's answers, `REQUESTS` of them after a warm-up: the last's cost, and their latency. */
  const warm = async (handler: Handler, request: ReturnType<typeof event>, status: number) => {
    let answer = await handler(request, lambdaContext('bench'));
    for (let i = 1; i < WARMUP; i += 1) answer = await handler(request, lambdaContext('bench'));
    const times: number[] = [];
    let cost = metered.take();
    for (let i = 0; i < REQUESTS; i += 1) {
      const started = performance.now();
      const response = await handler(request, lambdaContext('bench'));
      times.push(performance.now() - started);
      if (response.statusCode !== status) throw new Error(`${response.statusCode} ${response.body}`);
      cost = metered.take();
    }
    return { answer, cost, p50: round(percentile(times, 50)) };
  };

  const results: PlacesResult[] = [];
  for (const query of queries) {
    const first = await cold(event(places, query));
    const twinFirst = await cold(event(twin, query));
    const handler = handlerOf(metered.repository);
    const page = await warm(handler, event(places, query), 200);
    if (page.answer.body !== first.answer.body)
      throw new Error(`${query}: the warm answer differs from the cold one`);
    const tag = String(page.answer.headers?.ETag);
    const poll = await warm(handler, event(places, query, new Map([['If-None-Match', [tag]]])), 304);
    const body = JSON.parse(first.answer.body) as ListingResponse;
    const cities = body.facets?.city;
    results.push({
      vacancies: size,
      in_several_cities: placesRecords.filter((record, i) => i < size && 'additional_cities' in record)
        .length,
      query: decodeURIComponent(query),
      total: body.pagination.total,
      city_counts: cities ? cities.reduce((sum, value) => sum + value.count, 0) : null,
      warm_rcu: page.cost.readUnits,
      warm_calls: page.cost.calls,
      p50_ms: page.p50,
      cold_rcu: round(first.cost.readUnits, 1),
      cold_calls: first.cost.calls,
      one_city_cold_rcu: round(twinFirst.cost.readUnits, 1),
      poll_rcu: poll.cost.readUnits,
      entry_mean_bytes: searchEntryMean(placesItems),
      one_city_entry_mean_bytes: searchEntryMean(twinItems),
    });
  }
  process.stderr.write(`  ${size} in several cities: done\n`);
  return results;
}
