/**
 * A feed's walk of a vendor's listable vacancies against the slow exact path, for random data and random writes:
 * every vacancy the listing's own walk by `next_page_url` yields, in the same order, each once, with the items as
 * the listing shows them — and nothing else (another vendor's, an inactive, closed or expired one) — read call by
 * call whatever the index's page size, every read metered.
 */

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ITEM } from '../../../../../lambda/domain/schema/tables';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { listableVacancies } from '../../../../../lambda/functions/feeds/listable';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { listingWrites, modelledVacancy, modelledVendor } from '../../../../../testkit/listing-model';
import { CLOCK } from '../../../../../testkit/vacancies';

const SLOTS = 10;

const vacancy = modelledVacancy;

describe("a feed's walk of a vendor's listable vacancies", () => {
  let tables: TestTables;
  let run = 0;

  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => tables.drop());

  it('yields what the listing walks, in its order, each once, read call by call and metered', async () => {
    const handler = testListingHandler(tables, {
      now: () => new Date(Date.now() + INDEX_SETTLE_MS + 1_000),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...Array.from({ length: SLOTS }, (_, i) => vacancy(i))),
        fc.array(listingWrites(vacancy, SLOTS, ['active', 'inactive', 'closed']), { maxLength: 5 }),
        fc.integer({ min: 1, max: 4 }),
        async (initial, writes, pageSize) => {
          run += 1;
          const vendorId = `f${run}`;
          const firstId = run * 100;
          const vendor = await modelledVendor(tables, vendorId, firstId);
          await vendor.importAll(initial);
          for (const change of writes) await vendor.apply(change);
          // Another vendor's vacancies beside them, all listable: none may appear.
          const other = await modelledVendor(tables, `${vendorId}-other`, firstId + 50);
          await other.importAll(initial.map((v) => ({ ...v, status: 'active', dayOffset: 1 })));

          // The slow exact path: the listing's walk by next_page_url.
          const walked: Record<string, unknown>[] = [];
          let next: string | undefined = 'per_page=3&lang=en';
          while (next !== undefined) {
            const response = await handler(
              listingEvent({ authorizer: { vendorId, company: 'Acme' }, query: next }),
              lambdaContext('listing'),
            );
            const body = JSON.parse(response.body) as ListingResponse;
            walked.push(...(body.data as unknown as Record<string, unknown>[]));
            next = body.pagination.next_page_url
              ? new URL(body.pagination.next_page_url).search.slice(1)
              : undefined;
          }

          let readUnits = 0;
          let calls = 0;
          const fed = [];
          for await (const page of listableVacancies(
            { client: tables.client, tableName: tables.names.vacancies, queryPageSize: pageSize },
            {
              client: tables.client,
              tableName: tables.names.vacancies,
              retry: { maxStalls: 4, baseDelayMs: 1, maxDelayMs: 5 },
            },
            vendorId,
            CLOCK.today(new Date()),
            {
              add: (read) => {
                readUnits += read.readUnits;
                calls += read.calls;
              },
            },
          )) {
            expect(page.length).toBeLessThanOrEqual(pageSize);
            fed.push(...page);
          }
          expect(fed.map((item) => item.id)).toEqual(walked.map((v) => v.id));
          expect(
            fed.every((item) => item[ITEM.vendor] === vendorId && typeof item[ITEM.updatedAt] === 'number'),
          ).toBe(true);
          const listable = [...vendor.vacancies.values()].filter(
            (v) => v.status === 'active' && v.dayOffset >= 0,
          );
          expect(fed.length).toBe(listable.length);
          // At least one Query call, and one a page of entries; a vacancy read is a read unit counted.
          expect(calls).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(fed.length / pageSize)));
          if (fed.length > 0) expect(readUnits).toBeGreaterThan(0);
        },
      ),
      { numRuns: 15 },
    );
  });
});
