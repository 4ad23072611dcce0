/**
 * The listing's fast paths against the slow exact ones (docs/design.md#how-a-listing-reads, #etags), for random
 * data and random writes: `total` (from the summary when it is current) is exactly the number of vacancies a walk
 * by `next_page_url` yields, which are exactly the listable ones for the filters; and an `ETag` always stands for
 * the same bytes — so whenever two bodies differ (a write, the company renamed, the day turning, the locale, the
 * base URL), so do their tags — while a matching poll is a 304 that read nothing but the summary.
 */

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fc from 'fast-check';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import type { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest } from '../../../../../testkit/events';
import { lambdaContext, testMetrics } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import {
  listingWrites,
  type ModelledVacancy,
  modelledVacancy,
  modelledVendor,
} from '../../../../../testkit/listing-model';
import { CLOCK } from '../../../../../testkit/vacancies';

const DAY_MS = 86_400_000;

/** A vacancy as the test's model holds it. */
type Modelled = ModelledVacancy;

const vacancy = modelledVacancy;

const SLOTS = 12;
const write = listingWrites(vacancy, SLOTS, ['active', 'inactive', 'closed']);
const filters = fc.record(
  {
    type: fc.integer({ min: 1, max: 4 }),
    experience_min: fc.integer({ min: 0, max: 3 }),
    experience_max: fc.integer({ min: 3, max: 5 }),
  },
  { requiredKeys: [] },
);

describe('the listing, against the slow exact path', () => {
  let tables: TestTables;
  let run = 0;
  let now = Date.now();
  const metrics = testMetrics('listing');
  let handler: ReturnType<typeof createVacanciesHandler>;

  beforeAll(async () => {
    tables = await createTestTables();
    handler = testListingHandler(tables, { metrics, now: () => new Date(now) });
  });
  afterAll(async () => tables.drop());

  it('gives a total that a walk yields exactly, and tags that never stand for two bodies', async () => {
    let summaryTags = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...Array.from({ length: SLOTS }, (_, i) => vacancy(i))),
        fc.array(write, { maxLength: 6 }),
        filters,
        fc.integer({ min: 1, max: 6 }),
        async (initial, writes, filter, perPage) => {
          run += 1;
          const vendorId = `l${run}`;
          const firstId = run * 100;
          const vendor = await modelledVendor<Modelled>(tables, vendorId, firstId);
          const model = vendor.vacancies;
          await vendor.importAll(initial);
          for (const change of writes) await vendor.apply(change);
          // Read once the writes have settled: the summary is what answers.
          now = Date.now() + INDEX_SETTLE_MS + 1_000;

          const query = new URLSearchParams({
            ...Object.fromEntries(Object.entries(filter).map(([name, value]) => [name, String(value)])),
            per_page: String(perPage),
          }).toString();
          const authorizer = { vendorId, company: 'Acme' };
          const call = (request: TestRequest) =>
            handler(listingEvent({ authorizer, ...request }), lambdaContext('listing'));

          // The walk, and what the model says is listable.
          const seen: number[] = [];
          let total: number | undefined;
          let next: string | undefined = query;
          while (next !== undefined) {
            const response = await call({ query: next });
            expect(response.statusCode).toBe(200);
            const body = JSON.parse(response.body) as ListingResponse;
            total ??= body.pagination.total;
            seen.push(...body.data.map((v) => v.id - firstId));
            next = body.pagination.next_page_url
              ? new URL(body.pagination.next_page_url).search.slice(1)
              : undefined;
          }
          const listable = [...model.values()].filter(
            (v) =>
              v.status === 'active' &&
              v.dayOffset >= 0 &&
              (filter.type === undefined || v.type === filter.type) &&
              (filter.experience_min === undefined || v.min >= filter.experience_min) &&
              (filter.experience_max === undefined || (v.max !== null && v.max <= filter.experience_max)),
          );
          expect(new Set(seen).size).toBe(seen.length);
          expect(seen.length).toBe(total);
          expect([...seen].sort((a, b) => a - b)).toEqual(listable.map((v) => v.id).sort((a, b) => a - b));

          // Tags: every variation of the request and of the data, each body under its tag.
          const bodies = new Map<string, string>();
          const tagged = async (request: TestRequest) => {
            const response = await call(request);
            const etag = String(response.headers?.ETag);
            const representation = `${response.headers?.['Content-Language']}\n${response.body}`;
            const known = bodies.get(etag);
            if (known !== undefined) expect(representation).toBe(known);
            bodies.set(etag, representation);
            if (etag.startsWith('"s')) summaryTags += 1;
            return { etag, response };
          };
          const page1 = await tagged({ query });
          expect((await tagged({ query })).etag).toBe(page1.etag);
          await tagged({ query, authorizer: { vendorId, company: 'Acme Renamed' } });
          await tagged({ query: `${query}&lang=az` });
          // The same locale and page size given or left to a default: the links keep only what was given, so the
          // bodies differ (page 2 always has a link, to page 1), and so must the tags.
          for (const page of ['', '&page=2']) {
            await tagged({ query: `${query}&lang=en${page}` });
            await tagged({ query: `${query}${page}`, headers: { 'Accept-Language': 'en' } });
            await tagged({ query: `${query}${page}`, headers: { 'Accept-Language': 'az' } });
            const withoutPerPage = new URLSearchParams(`${query}${page}`);
            withoutPerPage.delete('per_page');
            await tagged({ query: withoutPerPage.toString() });
            withoutPerPage.set('per_page', '15');
            await tagged({ query: withoutPerPage.toString() });
          }
          await tagged({ query, domainName: 'other.example.com' });
          await tagged({ query: `${query}&page=2` });

          // A poll with the tag: 304, having read the summary alone when its tag is the summary's.
          const added = jest.spyOn(metrics, 'count');
          const poll = await call({ query, headers: { 'If-None-Match': page1.etag } });
          expect(poll.statusCode).toBe(304);
          const readUnits = added.mock.calls.find(([name]) => name === 'readUnits')?.[1];
          added.mockRestore();
          if (page1.etag.startsWith('"s')) expect(readUnits).toBeLessThanOrEqual(1);

          // The next day: what expired is gone, and the tag with it.
          now += DAY_MS;
          await tagged({ query });
          now -= DAY_MS;
          // A write: the tag of the page changes when its body does.
          const target = [...model.values()][0];
          if (target) {
            await setVacancyStatus(
              tables.documentClient,
              tables.names,
              firstId + target.id,
              target.status === 'active' ? 'closed' : 'active',
              { clock: CLOCK },
            );
            await tagged({ query });
            now = Date.now() + INDEX_SETTLE_MS + 1_000;
            await tagged({ query });
          }
        },
      ),
      { numRuns: Number(process.env.LISTING_PROPERTY_RUNS ?? 30), endOnFailure: true },
    );
    // The summary's path was taken, not only the body digest's.
    expect(summaryTags).toBeGreaterThan(0);
  }, 120_000);
});
