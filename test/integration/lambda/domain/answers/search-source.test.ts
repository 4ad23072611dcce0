/**
 * Search, filters by code and facets on the listing (docs/api.md#search-filters-and-facets): what matches, the
 * facets' shape, the links and cursors, the refusals, what a request reads (docs/design.md#search) — and a table
 * written before the search index existed, upgraded, answering them.
 */

import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { SEARCH_INDEX, VACANCIES_TABLE, VENDORS_TABLE } from '../../../../../lambda/domain/schema/tables';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../../lambda/platform/dynamodb/document-client';
import { createTableInput, createTables, localTableNames } from '../../../../../lib/create-tables';
import { setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables, testEndpoint } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest } from '../../../../../testkit/events';
import { lambdaContext, silentLogger, testMetrics } from '../../../../../testkit/lambda';
import { importRecords } from '../../../../../testkit/listing';
import { expectDocumented } from '../../../../../testkit/openapi';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

const VENDOR = 'search-acme';
const RECORDS = [
  { id: 1, title: 'Senior Backend Engineer', category: 'it', city: 'baku', type: 1 },
  { id: 2, title: 'Baş mühəndis', category: 'engineering', city: 'ganja', type: 1 },
  { id: 3, title: 'Mühasib', category: 'finance', city: 'baku', type: 2 },
  { id: 4, title: 'İnsan resursları üzrə mütəxəssis', category: 'hr', city: 'sumgait', type: 1 },
  { id: 5, title: 'Satış meneceri', category: 'sales', city: 'shaki', type: 3 },
  { id: 6, title: 'Frontend developer', category: 'it', city: 'baku', type: 2 },
  { id: 7, title: 'Anbar işçisi', category: 'logistics', city: 'khirdalan', type: 1, status: 'closed' },
].map(({ id, ...fields }) =>
  vacancyRecord({
    id,
    vendor_id: VENDOR,
    created_at: `2026-01-${String(10 + id).padStart(2, '0')} 09:30:00`,
    ...fields,
  }),
);

/** The listing of `tables` for the vendor, after its writes settled, with the reads each answer cost. */
function listingOf(tables: Pick<TestTables, 'client' | 'names'>) {
  const metrics = testMetrics('listing');
  const repository = createVacancyRepository(tables.client, {
    tableName: tables.names.vacancies,
    vendorsTable: tables.names.vendors,
  });
  const entriesRead = jest.spyOn(repository, 'readSearchEntries');
  let now = Date.now() + INDEX_SETTLE_MS + 1_000;
  const handler = createVacanciesHandler({
    repository,
    settings: {
      defaultLocale: 'en',
      clock: CLOCK,
      defaultPerPage: 15,
      rateTiers: { standard: { rate: 10, burst: 20 } },
    },
    logger: silentLogger(),
    metrics,
    now: () => new Date(now),
  });
  const call = async (request: TestRequest) => {
    const added = jest.spyOn(metrics, 'count');
    const response = await handler(
      listingEvent({ authorizer: { vendorId: VENDOR, company: 'Acme' }, ...request }),
      lambdaContext('listing'),
    );
    const readUnits = added.mock.calls.find(([name]) => name === 'readUnits')?.[1] ?? 0;
    added.mockRestore();
    return { response, readUnits, body: JSON.parse(response.body || '{}') as ListingResponse };
  };
  return {
    call,
    entriesRead,
    settle() {
      now = Date.now() + INDEX_SETTLE_MS + 1_000;
    },
  };
}

const ids = (body: ListingResponse) => body.data.map((v) => v.id);

describe('search, filters by code and facets', () => {
  let tables: TestTables;
  let listing: ReturnType<typeof listingOf>;

  beforeAll(async () => {
    tables = await createTestTables();
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: VENDOR, company: 'Acme' });
    await importRecords(tables, RECORDS);
    listing = listingOf(tables);
  });
  afterAll(async () => tables.drop());

  it.each([
    ['muhendis', [2]],
    ['MÜHƏNDİS', [2]],
    ['baki', [6, 3, 1]],
    ['Bakı', [6, 3, 1]],
    ['sen back', [1]],
    ['sr back', []],
    ['insan resurs', [4]],
    ['human', [4]],
    ['information', [6, 1]],
    ['gence', [2]],
    ['anbar', []],
    ['mü', [4, 3, 2]],
  ])('q=%p finds %p (words of the title, or of the category or city label in az or en)', async (q, found) => {
    const { body } = await listing.call({ query: `q=${encodeURIComponent(q)}` });
    expect(ids(body)).toEqual(found);
    expect(body.pagination.total).toBe(found.length);
  });

  it('filters by category and city (OR within, AND across), with type and experience', async () => {
    expect(ids((await listing.call({ query: 'category=it,finance' })).body)).toEqual([6, 3, 1]);
    expect(ids((await listing.call({ query: 'category=it,finance&city=baku&type=2' })).body)).toEqual([6, 3]);
    expect(ids((await listing.call({ query: 'city=shaki,ganja,ganja' })).body)).toEqual([5, 2]);
    expect(ids((await listing.call({ query: 'city=khirdalan' })).body)).toEqual([]);
  });

  it('counts facets over every filter but their own: by count, then the dictionary order; labels in the locale', async () => {
    const { body } = await listing.call({ query: 'city=baku&facets=city,type,category&lang=az' });
    expect(Object.keys(body)).toEqual(['status', 'company', 'data', 'pagination', 'facets']);
    expect(body.facets).toEqual({
      type: [
        { code: 1, label: 'Tam iş günü', count: 1 },
        { code: 2, label: 'Yarım iş günü', count: 2 },
      ].sort((a, b) => b.count - a.count),
      category: [
        { code: 'it', label: 'İnformasiya Texnologiyaları', count: 2 },
        { code: 'finance', label: 'Maliyyə', count: 1 },
      ],
      city: [
        { code: 'baku', label: 'Bakı', count: 3 },
        { code: 'ganja', label: 'Gəncə', count: 1 },
        { code: 'sumgait', label: 'Sumqayıt', count: 1 },
        { code: 'shaki', label: 'Şəki', count: 1 },
      ],
    });
    // As the OpenAPI document describes it, in both locales.
    for (const lang of ['az', 'en']) {
      const query = `city=baku&facets=city,type,category&lang=${lang}`;
      const { response } = await listing.call({ query });
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
    const none = await listing.call({ query: 'q=zzz&facets=city' });
    expect(none.body.facets).toEqual({ city: [] });
    expect((await listing.call({ query: 'q=dev' })).body.facets).toBeUndefined();
  });

  it('keeps every given parameter in the links, canonical; binds the cursor to them', async () => {
    const { body } = await listing.call({
      query: 'per_page=1&q=%20%20Baki%20%20&city=baku,baku&category=it&facets=type,type&lang=EN',
    });
    const next = new URL(body.pagination.next_page_url as string);
    expect([...next.searchParams.keys()]).toEqual([
      'category',
      'city',
      'q',
      'facets',
      'per_page',
      'lang',
      'page',
      'cursor',
    ]);
    expect(next.searchParams.get('q')).toBe('Baki');
    expect(next.searchParams.get('city')).toBe('baku');
    const cursor = next.searchParams.get('cursor') as string;
    const other = await listing.call({
      query: `per_page=1&q=dev&city=baku&category=it&facets=type&page=2&cursor=${cursor}`,
    });
    expect(other.response.statusCode).toBe(422);
    expect(JSON.parse(other.response.body).errors).toEqual({ cursor: ['The cursor is invalid.'] });
    // The same filters written otherwise: the same walk.
    const same = await listing.call({
      query: `per_page=1&q=BAKI&city=baku&category=it&facets=type&page=2&cursor=${cursor}`,
    });
    expect(same.response.statusCode).toBe(200);
    expect(ids(same.body)).toEqual([1]);
  });

  it('refuses them with updated_since, and names each invalid one', async () => {
    const sync = await listing.call({ query: 'updated_since=1970-01-01T00:00:00Z&city=baku' });
    expect(sync.response.statusCode).toBe(422);
    expect(JSON.parse(sync.response.body).errors).toEqual({
      city: ['The city cannot be combined with updated_since.'],
    });
    const bad = await listing.call({ query: 'city=paris&facets=salary' });
    expect(bad.response.statusCode).toBe(422);
    expect(Object.keys(JSON.parse(bad.response.body).errors)).toEqual(['city', 'facets']);
  });

  it('reads the entries once per state of the vendor; a warm page reads the summary and its items; a poll, the summary', async () => {
    const fresh = listingOf(tables);
    const query = 'q=dev&city=baku&facets=type,category,city';
    const cold = await fresh.call({ query });
    expect(fresh.entriesRead).toHaveBeenCalledTimes(1);
    expect(cold.response.statusCode).toBe(200);
    const warm = await fresh.call({ query: 'category=it&q=back' });
    const plain = await fresh.call({ query: 'type=1' });
    // Warm: one strong read of the summary and one BatchGetItem of the page, never the index.
    expect(warm.readUnits).toBeLessThanOrEqual(plain.readUnits + 1);
    expect(warm.readUnits).toBeLessThan(cold.readUnits);
    const etag = String(cold.response.headers?.ETag);
    expect(etag.startsWith('"s')).toBe(true);
    const poll = await fresh.call({ query, headers: { 'If-None-Match': etag } });
    expect(poll.response.statusCode).toBe(304);
    expect(poll.readUnits).toBeLessThanOrEqual(1);

    // A write changes the summary's state: the entries are read again, once, and the answer follows.
    await setVacancyStatus(tables.documentClient, tables.names, 6, 'closed', { clock: CLOCK });
    fresh.settle();
    const after = await fresh.call({ query });
    expect(ids(after.body)).toEqual([]);
    expect(after.response.headers?.ETag).not.toBe(etag);
    expect(after.readUnits).toBeGreaterThan(warm.readUnits);
    expect(fresh.entriesRead).toHaveBeenCalledTimes(2);
    const again = await fresh.call({ query: 'city=baku' });
    expect(fresh.entriesRead).toHaveBeenCalledTimes(2);
    expect(ids(again.body)).toEqual([3, 1]);
    expect(again.readUnits).toBeLessThanOrEqual(plain.readUnits + 1);
    await setVacancyStatus(tables.documentClient, tables.names, 6, 'active', { clock: CLOCK });
    fresh.settle();
  });
});

describe('a write that lands while a request reads the entries', () => {
  it('is not hidden: the entries read around it are not held, and the next request reads them again', async () => {
    const tables = await createTestTables();
    try {
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId: VENDOR, company: 'Acme' });
      // Written a minute ago (by the writers' clock): the summary is current for a request made now.
      await importRecords(tables, RECORDS, { now: () => Date.now() - 60_000 });
      const repository = createVacancyRepository(tables.client, {
        tableName: tables.names.vacancies,
        vendorsTable: tables.names.vendors,
      });
      const read = repository.readSearchEntries.bind(repository);
      let racing = true;
      const entriesRead = jest.fn(async (vendorId: string, signal?: AbortSignal) => {
        const entries = await read(vendorId, signal);
        if (racing) {
          racing = false;
          // Lands after the entries were read, before the summary is read again.
          await importRecords(tables, [{ ...RECORDS[0], title: 'Senior Frontend Engineer' }]);
        }
        return entries;
      });
      const handler = createVacanciesHandler({
        repository: { ...repository, readSearchEntries: entriesRead },
        settings: { defaultLocale: 'en', clock: CLOCK, defaultPerPage: 15 },
        logger: silentLogger(),
        metrics: testMetrics('listing'),
      });
      const call = async (query: string) => {
        const response = await handler(
          listingEvent({ authorizer: { vendorId: VENDOR, company: 'Acme' }, query }),
          lambdaContext('listing'),
        );
        return { etag: response.headers?.ETag, body: JSON.parse(response.body) as ListingResponse };
      };
      // The first answer is what was read — the write came after — and no summary can vouch for it: no tag of its.
      const first = await call('q=backend');
      expect(ids(first.body)).toEqual([1]);
      expect(String(first.etag).startsWith('"s')).toBe(false);
      // The next request does not answer from those entries.
      const second = await call('q=backend');
      expect(entriesRead).toHaveBeenCalledTimes(2);
      expect(ids(second.body)).toEqual([]);
      expect(ids((await call('q=frontend')).body)).toEqual([6, 1]);
    } finally {
      await tables.drop();
    }
  });
});

describe('a table written before the search index existed', () => {
  it('gains it when upgraded, and answers search exactly', async () => {
    const endpoint = testEndpoint();
    const client = createDynamoDBClient({ endpoint });
    const names = localTableNames(`up${Date.now() % 100_000}-`);
    // The table as the release before this one created it: without the search index.
    const before = {
      ...VACANCIES_TABLE,
      globalIndexes: VACANCIES_TABLE.globalIndexes.filter(({ indexName }) => indexName !== SEARCH_INDEX.name),
    };
    await client.send(new CreateTableCommand(createTableInput(before, names.vacancies)));
    await client.send(new CreateTableCommand(createTableInput(VENDORS_TABLE, names.vendors)));
    // Active before the first write, as on AWS: the engine answers CreateTable with a table still CREATING, and a
    // write that comes before it is ACTIVE is refused (ResourceNotFoundException) — seen with four workers.
    for (const TableName of [names.vacancies, names.vendors])
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName });
    const documentClient = createDocumentClient(client);
    const tables = { client, documentClient, names } as unknown as TestTables;
    await putVendor(documentClient, names.vendors, { vendorId: VENDOR, company: 'Acme' });
    await importRecords(tables, RECORDS);
    const describe = async () =>
      (await client.send(new DescribeTableCommand({ TableName: names.vacancies }))).Table;
    expect((await describe())?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).not.toContain(
      SEARCH_INDEX.name,
    );

    // The upgrade: the index added in place (UpdateTable) where the engine can; rebuilt on one that cannot.
    await createTables(client, names);
    expect((await describe())?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toContain(SEARCH_INDEX.name);

    const upgraded = listingOf(tables);
    const { body } = await upgraded.call({ query: 'q=baki&facets=category' });
    expect(ids(body)).toEqual([6, 3, 1]);
    expect(body.facets).toEqual({
      category: [
        { code: 'it', label: 'Information Technology', count: 2 },
        { code: 'finance', label: 'Finance', count: 1 },
      ],
    });
    expect(ids((await upgraded.call({ query: 'city=ganja,shaki' })).body)).toEqual([5, 2]);
    // What the release before served is served as it was.
    expect(ids((await upgraded.call({ query: 'type=1' })).body)).toEqual([4, 2, 1]);
    await Promise.all(
      Object.values(names).map((TableName) => client.send(new DeleteTableCommand({ TableName }))),
    );
    client.destroy();
  });
});
