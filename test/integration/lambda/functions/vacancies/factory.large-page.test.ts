/**
 * The import's size limits exist so that a page always fits one response: 100 vacancies of the largest size
 * the import allows, listed 100 to a page, must answer 200 with a body — and Lambda's whole response payload,
 * where the body is escaped once more — under 6 MB; in every city of the dictionary, with all `include` adds, too.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DICTIONARY } from '../../../../../lambda/domain/vacancy/dictionary';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { CLOCK, LARGEST_TEXTS, putVacancies, vacancyRecord } from '../../../../../testkit/vacancies';

const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

describe('a page of the largest vacancies the import allows', () => {
  let tables: TestTables;
  beforeAll(async () => {
    tables = await createTestTables();
    const records = Array.from({ length: 100 }, (_, i) =>
      vacancyRecord({ ...LARGEST_TEXTS, id: i + 1, vendor_id: 'bulky', created_at: '2026-01-10T09:30:00Z' }),
    );
    // The same vacancies in every city of the dictionary, their cities' labels the longest (docs/api.md#many-places).
    const [first = 'baku', ...others] = Object.keys(DICTIONARY.city);
    const everywhere = records.map((record, i) => ({
      ...record,
      id: 1_000 + i,
      vendor_id: 'everywhere',
      city: first,
      additional_cities: others,
    }));
    await putVacancies(tables.documentClient, tables.names.vacancies, [...records, ...everywhere]);
  });
  afterAll(async () => tables.drop());

  it('answers per_page=100 with 200, the body and Lambda payload under 6 MB', async () => {
    const handler = testListingHandler(tables, { settings: { defaultLocale: 'az', clock: CLOCK } });
    const response = await handler(
      listingEvent({ query: 'per_page=100', authorizer: { vendorId: 'bulky', company: 'Bulky' } }),
      lambdaContext('listing'),
    );
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body) as ListingResponse;
    expect(body.data).toHaveLength(100);
    expect(body.data[0]?.description).toBe(LARGEST_TEXTS.description);
    const bodyBytes = Buffer.byteLength(response.body);
    const payloadBytes = Buffer.byteLength(JSON.stringify(response));
    expect(bodyBytes).toBeGreaterThan(5_000_000);
    expect(payloadBytes).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });

  it('answers them in every city with include=pay,workplace,locations, the Lambda payload still under 6 MB', async () => {
    const handler = testListingHandler(tables, { settings: { defaultLocale: 'az', clock: CLOCK } });
    const response = await handler(
      listingEvent({
        query: 'per_page=100&include=pay,workplace,locations',
        authorizer: { vendorId: 'everywhere', company: 'Everywhere' },
      }),
      lambdaContext('listing'),
    );
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body) as ListingResponse;
    expect(body.data).toHaveLength(100);
    expect(body.data[0]?.locations).toHaveLength(Object.keys(DICTIONARY.city).length);
    expect(Buffer.byteLength(JSON.stringify(response))).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
  });
});
