/**
 * `search_vacancies` is the listing in another envelope (docs/api.md#agents-mcp): random vendors — random titles,
 * categories, cities (one or several a vacancy), types, experience and statuses — and random calls, valid and not. Every call's result equals the
 * listing's answer to the same parameters as a query string — its company, page of vacancies, total, pages and facets —
 * and a walk by the tool's cursor reads the very pages a walk by `next_page_url` reads; an invalid call is refused
 * with the listing's 422, each parameter named with the listing's message. Both answer from one table, one clock.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InvalidQueryError } from '../../../../../lambda/domain/answers/errors';
import { HeldEntries } from '../../../../../lambda/domain/answers/search/held-entries';
import type { AnswerSettings } from '../../../../../lambda/domain/answers/settings';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { searchVacancies, type ToolArguments } from '../../../../../lambda/functions/mcp/tools';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { modelledVendor } from '../../../../../testkit/listing-model';
import {
  queryString,
  type SearchedVacancy,
  SLOTS,
  searchCall,
  searchedFields,
  searchedVacancy,
  searchResultOf,
} from '../../../../../testkit/mcp-calls';
import { CLOCK } from '../../../../../testkit/vacancies';

describe('search_vacancies against the listing, for random vendors and calls', () => {
  let tables: TestTables;
  let run = 0;
  /** How the calls came out, so that the test shows it compared pages and refusals both. */
  const outcomes = { pages: 0, refused: 0 };
  let now = Date.now();
  let listing: ReturnType<typeof testListingHandler>;
  const settings: AnswerSettings = { defaultLocale: 'en', clock: CLOCK, defaultPerPage: 15 };

  beforeAll(async () => {
    tables = await createTestTables();
    listing = testListingHandler(tables, { settings, now: () => new Date(now) });
  });
  afterAll(async () => tables.drop());

  it('answers every call as the listing answers its query: the same page, total, pages and facets, or the same 422', async () => {
    const repository = createVacancyRepository(tables.client, {
      tableName: tables.names.vacancies,
      vendorsTable: tables.names.vendors,
    });
    const heldEntries = new HeldEntries();
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...Array.from({ length: SLOTS }, (_, i) => searchedVacancy(i))),
        fc.array(searchCall, { minLength: 1, maxLength: 4 }),
        async (initial, calls) => {
          run += 1;
          const vendorId = `m${run}`;
          const vendor = await modelledVendor<SearchedVacancy>(tables, vendorId, run * 100, searchedFields);
          await vendor.importAll(initial);
          now = Date.now() + INDEX_SETTLE_MS + 1_000;
          const authorizer = { vendorId, company: 'Acme' };
          const context = {
            vendor: { ...authorizer, rateTier: 'standard' },
            acceptLanguage: undefined,
            now: new Date(now),
            repository,
            settings,
            heldEntries,
          };
          const listed = async (query: string) => {
            const response = await listing(listingEvent({ authorizer, query }), lambdaContext('listing'));
            return { status: response.statusCode, body: JSON.parse(response.body) };
          };
          const searched = async (args: ToolArguments) => {
            try {
              return { status: 200, result: (await searchVacancies(args, context)).result };
            } catch (error) {
              if (!(error instanceof InvalidQueryError)) throw error;
              return { status: 422, errors: error.fields };
            }
          };

          for (const args of calls) {
            let query: string | undefined = queryString(args);
            let tool: ToolArguments | undefined = args;
            let pages = 0;
            while (query !== undefined && tool !== undefined) {
              const expected = await listed(query);
              const got = await searched(tool);
              expect(got.status).toBe(expected.status);
              outcomes[expected.status === 200 ? 'pages' : 'refused'] += 1;
              if (expected.status !== 200) {
                expect(got.errors).toEqual(expected.body.errors);
                break;
              }
              const { pagination } = expected.body as ListingResponse;
              expect(got.result).toEqual(searchResultOf(expected.body as ListingResponse));
              // The next page: the listing's link, the tool's cursor with the same other arguments.
              pages += 1;
              const cursor = got.result?.pagination.cursor ?? null;
              query = pagination.next_page_url
                ? new URL(pagination.next_page_url).search.slice(1)
                : undefined;
              tool = cursor === null || pages > 6 ? undefined : { ...args, cursor };
            }
          }
        },
      ),
      { numRuns: Number(process.env.MCP_PROPERTY_RUNS ?? 30), endOnFailure: true },
    );
    // Some 75 calls: about a third refused (an invalid value, or experience_min above experience_max), the rest pages.
    expect(outcomes.pages).toBeGreaterThan(10);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 180_000);
});
