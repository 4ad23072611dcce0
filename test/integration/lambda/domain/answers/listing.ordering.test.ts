/**
 * Listing order is the order of instants: newest `created_at` first, the larger id first within a second —
 * across 1970-01-01 (where the order key starts) and across daylight-saving changes, where wall-clock order
 * and the order of instants part ways.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { zoneClock } from '../../../../../lambda/platform/time/zone-clock';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { putVacancies, vacancyRecord } from '../../../../../testkit/vacancies';

const BERLIN = zoneClock('Europe/Berlin');

describe('listing order on the DynamoDB engine', () => {
  let tables: TestTables;
  let list: (vendorId: string) => Promise<ListingResponse>;

  beforeAll(async () => {
    tables = await createTestTables();
    const handler = testListingHandler(tables, {
      settings: { clock: BERLIN, defaultPerPage: 100 },
      now: () => new Date('2026-11-01T12:00:00Z'),
    });
    list = async (vendorId) => {
      const response = await handler(
        listingEvent({ authorizer: { vendorId, company: vendorId } }),
        lambdaContext('listing'),
      );
      return JSON.parse(response.body) as ListingResponse;
    };
    const record = (vendor: string, id: number, created_at: string) =>
      vacancyRecord({ id, vendor_id: vendor, created_at, url: `https://example.com/${id}` });
    await putVacancies(
      tables.documentClient,
      tables.names.vacancies,
      [
        // The first second of 1970 and the ones after it; equal seconds: the larger id first.
        record('epoch', 1, '1970-01-01T00:00:00Z'),
        record('epoch', 2, '1970-01-01T00:00:01Z'),
        record('epoch', 3, '1970-01-01T00:00:00Z'),
        record('epoch', 4, '1999-12-31T23:59:59Z'),
        record('epoch', 5, '2038-01-19T03:14:08Z'),
        // Berlin falls back at 03:00 on 2026-10-25: 02:30 (summer time, the first) is 00:30Z, and 02:15 in
        // winter time (+01:00) is 01:15Z — later, though its wall time is earlier.
        record('dst', 10, '2026-10-25 02:30:00'),
        record('dst', 11, '2026-10-25T02:15:00+01:00'),
        record('dst', 12, '2026-10-25 01:59:59'),
        record('dst', 13, '2026-10-25 03:00:00'),
        // Spring forward at 02:00 on 2026-03-29: 01:59:59 then 03:00:00 are one second apart.
        record('dst', 14, '2026-03-29 01:59:59'),
        record('dst', 15, '2026-03-29 03:00:00'),
      ],
      BERLIN,
    );
  });
  afterAll(async () => tables.drop());

  it('orders from 1970-01-01 on, the larger id first within a second', async () => {
    const body = await list('epoch');
    expect(body.data.map((vacancy) => [vacancy.id, vacancy.created_at])).toEqual([
      [5, '2038-01-19 04:14:08'],
      [4, '2000-01-01 00:59:59'],
      [2, '1970-01-01 01:00:01'],
      [3, '1970-01-01 01:00:00'],
      [1, '1970-01-01 01:00:00'],
    ]);
  });

  it('orders by instant across daylight-saving changes, showing wall-clock times', async () => {
    const body = await list('dst');
    expect(body.data.map((vacancy) => [vacancy.id, vacancy.created_at])).toEqual([
      [13, '2026-10-25 03:00:00'],
      [11, '2026-10-25 02:15:00'],
      [10, '2026-10-25 02:30:00'],
      [12, '2026-10-25 01:59:59'],
      [15, '2026-03-29 03:00:00'],
      [14, '2026-03-29 01:59:59'],
    ]);
  });
});
