/**
 * Pay and place on request (docs/api.md#pay-and-place): `include=pay` and `include=workplace` on the listing, a sync
 * and one vacancy — the fields after the 15 (after a sync's status and updated_at), in one order, the defaults for
 * what a record left out (an item stored before they existed too); links keep `include`, a cursor is not bound to
 * it; the `workplace` filter and facet; the JobPosting's pay and place from the vacancy; a change of them is a change.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { VACANCY_FIELDS } from '../../../../../lambda/domain/schema/vacancy';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import type { ListingResponse, SyncResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { importRecords, testListingHandler } from '../../../../../testkit/listing';
import { expectDocumented } from '../../../../../testkit/openapi';
import { vacancyRecord } from '../../../../../testkit/vacancies';

const VENDOR = 'pay-acme';

/** Checks a response of the listing against the OpenAPI document. */
function documented(
  query: string,
  response: { statusCode: number; headers?: Record<string, unknown>; body: string },
): void {
  expectDocumented({
    method: 'GET',
    target: `/vendor/vacancies?${query}`,
    status: response.statusCode,
    headers: new Map(
      Object.entries(response.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
    ),
    body: response.body,
  });
}
const record = (id: number, fields: Record<string, unknown>) =>
  vacancyRecord({
    id,
    vendor_id: VENDOR,
    created_at: `2026-01-${String(10 + id).padStart(2, '0')} 09:30:00`,
    ...fields,
  });
const RECORDS = [
  // Nothing of pay and place: as an item stored before they existed.
  record(1, { type: 1 }),
  record(2, {
    type: 2,
    salary_type: 'fixed',
    salary: 4000,
    salary_min: null,
    salary_max: null,
    salary_currency: 'EUR',
    salary_period: 'year',
    workplace: 'hybrid',
  }),
  record(3, { type: 3, salary_type: 'negotiable', salary_min: null, salary_max: null }),
  record(4, { type: 1, workplace: 'remote', salary_period: 'hour' }),
];

describe('include, the workplace filter and facet', () => {
  let tables: TestTables;
  let now = Date.now();
  let handler: ReturnType<typeof testListingHandler>;
  const call = async (query: string, request: { vacancyId?: string; accept?: string } = {}) => {
    const response = await handler(
      listingEvent({
        authorizer: { vendorId: VENDOR, company: 'Acme' },
        query,
        ...(request.vacancyId && { vacancyId: request.vacancyId }),
        ...(request.accept && { headers: { Accept: request.accept } }),
      }),
      lambdaContext('listing'),
    );
    return { response, body: JSON.parse(response.body || '{}') };
  };
  const settle = () => {
    now = Date.now() + INDEX_SETTLE_MS + 1_000;
  };

  beforeAll(async () => {
    tables = await createTestTables();
    handler = testListingHandler(tables, {
      now: () => new Date(now),
      settings: {
        jobPosting: { jobCountry: 'DE', salaryCurrency: 'USD', salaryPeriod: 'MONTH' },
        rateTiers: { standard: { rate: 10, burst: 20 } },
      },
    });
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: VENDOR, company: 'Acme' });
    await importRecords(tables, RECORDS);
    settle();
  });
  afterAll(async () => tables.drop());

  it('keeps the 15 fields exactly without include', async () => {
    const { body } = await call('');
    for (const vacancy of (body as ListingResponse).data)
      expect(Object.keys(vacancy)).toEqual(VACANCY_FIELDS);
  });

  it('adds the fields after the 15, in one order whatever include names, the defaults for what a record left out', async () => {
    const query = 'include=workplace,pay';
    const { response, body } = await call(query);
    expect(response.statusCode).toBe(200);
    const data = (body as ListingResponse).data as unknown as Record<string, unknown>[];
    for (const vacancy of data) {
      expect(Object.keys(vacancy)).toEqual([
        ...VACANCY_FIELDS,
        'salary_currency',
        'salary_period',
        'workplace',
      ]);
    }
    const extra = data.map(({ id, salary_currency, salary_period, workplace }) => ({
      id,
      salary_currency,
      salary_period,
      workplace,
    }));
    expect(extra).toEqual([
      { id: 4, salary_currency: 'USD', salary_period: 'hour', workplace: 'remote' },
      { id: 3, salary_currency: 'USD', salary_period: null, workplace: 'remote' },
      { id: 2, salary_currency: 'EUR', salary_period: 'year', workplace: 'hybrid' },
      { id: 1, salary_currency: 'USD', salary_period: 'month', workplace: 'onsite' },
    ]);
    documented(query, response);
    const pay = (await call('include=pay')).body as ListingResponse;
    expect(Object.keys(pay.data[0] ?? {}).slice(15)).toEqual(['salary_currency', 'salary_period']);
    const place = (await call('include=workplace')).body as ListingResponse;
    expect(Object.keys(place.data[0] ?? {}).slice(15)).toEqual(['workplace']);
  });

  it('keeps include in the links; a cursor is not bound to it', async () => {
    const first = (await call('include=pay&per_page=1')).body as ListingResponse;
    const next = new URL(first.pagination.next_page_url as string);
    expect(next.searchParams.get('include')).toBe('pay');
    // The same walk without include: the cursor still holds.
    next.searchParams.delete('include');
    const second = await call(next.search.slice(1));
    expect(second.response.statusCode).toBe(200);
    expect((second.body as ListingResponse).data.map((v) => v.id)).toEqual([3]);
    expect(Object.keys((second.body as ListingResponse).data[0] ?? {})).toEqual(VACANCY_FIELDS);
  });

  it('filters by workplace and counts it, over every filter but its own, ties in the order onsite, hybrid, remote', async () => {
    const query = 'include=pay,workplace&workplace=hybrid,remote&facets=workplace,type&lang=az';
    const { response, body } = await call(query);
    expect(response.statusCode).toBe(200);
    const listing = body as ListingResponse;
    expect(listing.data.map((v) => v.id)).toEqual([4, 3, 2]);
    expect(listing.facets).toEqual({
      type: [
        { code: 1, label: 'Tam iş günü', count: 1 },
        { code: 2, label: 'Yarım iş günü', count: 1 },
        { code: 3, label: 'Uzaqdan', count: 1 },
      ],
      workplace: [
        { code: 'remote', label: 'Uzaqdan', count: 2 },
        { code: 'onsite', label: 'Ofisdə', count: 1 },
        { code: 'hybrid', label: 'Hibrid', count: 1 },
      ],
    });
    expect(listing.pagination.total).toBe(3);
    documented(query, response);
    const english = (await call('facets=workplace&type=1')).body as ListingResponse;
    expect(english.facets?.workplace).toEqual([
      { code: 'onsite', label: 'On-site', count: 1 },
      { code: 'remote', label: 'Remote', count: 1 },
    ]);
    // The type filter on the active index keeps every workplace of the type.
    const typed = (await call('type=1')).body as ListingResponse;
    expect(typed.data.map((v) => v.id)).toEqual([4, 1]);
  });

  it('adds them to a sync after status and updated_at, keeps include in next_sync_url, and leaves tombstones alone', async () => {
    const query = 'updated_since=1970-01-01T00:00:00Z&include=workplace';
    const { response, body } = await call(query);
    expect(response.statusCode).toBe(200);
    const sync = body as SyncResponse;
    for (const vacancy of sync.data) {
      expect(Object.keys(vacancy)).toEqual([...VACANCY_FIELDS, 'status', 'updated_at', 'workplace']);
    }
    expect(new URL(sync.pagination.next_sync_url).searchParams.get('include')).toBe('workplace');
    documented(query, response);
  });

  it('adds them to one vacancy; an unknown name is a 422 after lang', async () => {
    const { response, body } = await call('include=pay', { vacancyId: '2' });
    expect(response.statusCode).toBe(200);
    expect(body.data).toMatchObject({ salary_currency: 'EUR', salary_period: 'year' });
    expect(Object.keys(body.data)).toEqual([...VACANCY_FIELDS, 'salary_currency', 'salary_period']);
    const refused = await call('include=salary&lang=xx', { vacancyId: '2' });
    expect(refused.response.statusCode).toBe(422);
    expect(refused.body.errors).toEqual({
      lang: ['The lang must be one of az, en.'],
      include: ['The include must be one or more of: pay, workplace, locations.'],
    });
  });

  it("states the vacancy's own currency and period in its JobPosting, TELECOMMUTE for remote work only", async () => {
    const posting = async (id: string) =>
      (await call('', { vacancyId: id, accept: 'application/ld+json' })).body as Record<string, unknown>;
    const hybrid = await posting('2');
    expect(hybrid.baseSalary).toEqual({
      '@type': 'MonetaryAmount',
      currency: 'EUR',
      value: { '@type': 'QuantitativeValue', value: 4000, unitText: 'YEAR' },
    });
    expect(hybrid.jobLocationType).toBeUndefined();
    expect(hybrid.employmentType).toBe('PART_TIME');
    const remote = await posting('4');
    expect(remote).toMatchObject({ jobLocationType: 'TELECOMMUTE', employmentType: 'FULL_TIME' });
    expect(remote.baseSalary).toMatchObject({ currency: 'USD', value: { unitText: 'HOUR' } });
    expect((await posting('1')).baseSalary).toMatchObject({ currency: 'USD', value: { unitText: 'MONTH' } });
  });

  it('records a change of pay or place alone as a change, and one imported as it is stored as none', async () => {
    const again = await importRecords(tables, RECORDS);
    expect(again).toMatchObject({ imported: 0, unchanged: RECORDS.length });
    const changed = await importRecords(tables, [
      record(1, { type: 1, workplace: 'hybrid' }),
      record(2, { ...RECORDS[1], id: 2, salary_currency: 'GBP' }),
      record(4, { type: 1, workplace: 'remote', salary_period: 'day' }),
    ]);
    expect(changed).toMatchObject({ imported: 3, unchanged: 0 });
    settle();
    const { body } = await call('workplace=hybrid&include=pay,workplace');
    expect((body as ListingResponse).data.map((v) => v.id)).toEqual([2, 1]);
  });
});

describe('include=locations, and the city filter, search and facet of a vacancy in several cities', () => {
  const vendor = 'places-acme';
  let tables: TestTables;
  let now = Date.now();
  let handler: ReturnType<typeof testListingHandler>;
  const call = async (query: string, vacancyId?: string, accept?: string) => {
    const response = await handler(
      listingEvent({
        authorizer: { vendorId: vendor, company: 'Acme' },
        query,
        ...(vacancyId && { vacancyId }),
        ...(accept && { headers: { Accept: accept } }),
      }),
      lambdaContext('listing'),
    );
    return { response, body: JSON.parse(response.body || '{}') };
  };
  const place = (id: number, fields: Record<string, unknown>) =>
    vacancyRecord({
      id,
      vendor_id: vendor,
      title: 'Cashier',
      category: 'sales',
      created_at: `2026-01-${String(10 + id).padStart(2, '0')} 09:30:00`,
      ...fields,
    });

  beforeAll(async () => {
    tables = await createTestTables();
    handler = testListingHandler(tables, {
      now: () => new Date(now),
      settings: { rateTiers: { standard: { rate: 10, burst: 20 } } },
    });
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: vendor, company: 'Acme' });
    await importRecords(tables, [
      place(1, { city: 'baku' }),
      place(2, { city: 'sumgait', additional_cities: ['baku', 'ganja'] }),
      place(3, { city: 'ganja', additional_cities: [] }),
      place(4, { city: 'quba', additional_cities: ['shaki'] }),
    ]);
    now = Date.now() + INDEX_SETTLE_MS + 1_000;
  });
  afterAll(async () => tables.drop());

  it('keeps the 15 fields, city the primary, and adds locations last: the primary first, labels in the locale', async () => {
    const plain = (await call('lang=az')).body as ListingResponse;
    expect(plain.data.map((v) => [v.id, v.city])).toEqual([
      [4, 'Quba'],
      [3, 'Gəncə'],
      [2, 'Sumqayıt'],
      [1, 'Bakı'],
    ]);
    for (const vacancy of plain.data) expect(Object.keys(vacancy)).toEqual(VACANCY_FIELDS);

    const query = 'include=locations,pay,workplace&lang=az';
    const { response, body } = await call(query);
    expect(response.statusCode).toBe(200);
    const listing = body as ListingResponse;
    expect(Object.keys(listing.data[0] ?? {}).slice(15)).toEqual([
      'salary_currency',
      'salary_period',
      'workplace',
      'locations',
    ]);
    expect(listing.data.map((v) => v.locations)).toEqual([
      [
        { city: 'quba', label: 'Quba' },
        { city: 'shaki', label: 'Şəki' },
      ],
      [{ city: 'ganja', label: 'Gəncə' }],
      [
        { city: 'sumgait', label: 'Sumqayıt' },
        { city: 'baku', label: 'Bakı' },
        { city: 'ganja', label: 'Gəncə' },
      ],
      [{ city: 'baku', label: 'Bakı' }],
    ]);
    documented(query, response);
    const english = (await call('include=locations&lang=en&per_page=1&page=3')).body as ListingResponse;
    expect(english.data[0]?.locations?.map((l) => l.label)).toEqual(['Sumgait', 'Baku', 'Ganja']);
  });

  it('finds a vacancy by any of its cities, by the words of any city, and counts it under each', async () => {
    const query = 'city=ganja&include=locations&facets=city&lang=az';
    const { response, body } = await call(query);
    expect(response.statusCode).toBe(200);
    const listing = body as ListingResponse;
    expect(listing.data.map((v) => v.id)).toEqual([3, 2]);
    expect(listing.pagination.total).toBe(2);
    // Over every filter but its own: all four vacancies, each under each of its cities — 7 counts for 4 vacancies.
    expect(listing.facets?.city).toEqual([
      { code: 'baku', label: 'Bakı', count: 2 },
      { code: 'ganja', label: 'Gəncə', count: 2 },
      { code: 'sumgait', label: 'Sumqayıt', count: 1 },
      { code: 'shaki', label: 'Şəki', count: 1 },
      { code: 'quba', label: 'Quba', count: 1 },
    ]);
    documented(query, response);
    expect(((await call('q=gence')).body as ListingResponse).data.map((v) => v.id)).toEqual([3, 2]);
    expect(((await call('q=shaki cashier')).body as ListingResponse).data.map((v) => v.id)).toEqual([4]);
    expect(((await call('city=shaki,sumgait')).body as ListingResponse).data.map((v) => v.id)).toEqual([
      4, 2,
    ]);
    const within = (await call('city=baku&facets=category')).body as ListingResponse;
    expect(within.facets?.category).toEqual([{ code: 'sales', label: 'Sales', count: 2 }]);
  });

  it('adds locations to a sync, after status and updated_at, and to one vacancy', async () => {
    const query = 'updated_since=1970-01-01T00:00:00Z&include=locations';
    const { response, body } = await call(query);
    expect(response.statusCode).toBe(200);
    const sync = body as SyncResponse;
    const second = sync.data.find((v) => v.id === 2) as Record<string, unknown>;
    expect(Object.keys(second)).toEqual([...VACANCY_FIELDS, 'status', 'updated_at', 'locations']);
    expect(second.locations).toEqual([
      { city: 'sumgait', label: 'Sumgait' },
      { city: 'baku', label: 'Baku' },
      { city: 'ganja', label: 'Ganja' },
    ]);
    expect(new URL(sync.pagination.next_sync_url).searchParams.get('include')).toBe('locations');
    documented(query, response);
    const one = await call('include=locations&lang=az', '4');
    expect(one.response.statusCode).toBe(200);
    expect(one.body.data).toMatchObject({
      city: 'Quba',
      locations: [
        { city: 'quba', label: 'Quba' },
        { city: 'shaki', label: 'Şəki' },
      ],
    });
    // Its JobPosting: a Place per city.
    const posting = (await call('lang=az', '4', 'application/ld+json')).body as { jobLocation: unknown };
    expect(posting.jobLocation).toEqual(
      ['Quba', 'Şəki'].map((addressLocality) => ({
        '@type': 'Place',
        address: { '@type': 'PostalAddress', addressLocality, addressCountry: 'AZ' },
      })),
    );
  });
});
