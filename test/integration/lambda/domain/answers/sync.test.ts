/**
 * Incremental sync, point by point (docs/api.md#incremental-sync): with a clock the test moves — the writers stamp
 * with it, the handler reads with it — so that the window's bounds, the settle window and the order can be shown
 * to the millisecond.
 */

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import type { SyncResponse } from '../../../../../lambda/functions/vacancies/bodies';
import type { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { deleteVacancy, purgeTombstones, setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest } from '../../../../../testkit/events';
import { lambdaContext, testMetrics } from '../../../../../testkit/lambda';
import { importRecords as importInto, testListingHandler } from '../../../../../testkit/listing';
import { SPEC_VACANCY_FIELDS } from '../../../../../testkit/spec';
import { vacancyRecord } from '../../../../../testkit/vacancies';

const FULL = 'updated_since=1970-01-01T00:00:00Z';
const iso = (ms: number) => new Date(ms).toISOString();
const since = (ms: number) => `updated_since=${encodeURIComponent(iso(ms))}`;

describe('incremental sync', () => {
  let tables: TestTables;
  let handler: ReturnType<typeof createVacanciesHandler>;
  const metrics = testMetrics('listing');
  // Writes at T0, T0 + 1 s, …: whole seconds, in the past of the handler's "now".
  const T0 = Date.UTC(2026, 10, 20, 6, 0, 0);
  let now = T0;
  const clock = () => now;

  const call = (request: TestRequest): Promise<APIGatewayProxyResult> =>
    handler(listingEvent(request), lambdaContext('listing'));
  const sync = async (query: string, authorizer?: Record<string, string>) => {
    const response = await call({ query, ...(authorizer && { authorizer }) });
    expect([query, response.statusCode, response.body.slice(0, 300)]).toEqual([
      query,
      200,
      expect.any(String),
    ]);
    return JSON.parse(response.body) as SyncResponse;
  };
  const importAt = (at: number, records: Record<string, unknown>[]) => {
    now = at;
    return importInto(tables, records, { now: clock });
  };
  /** The handler reads at `at`. */
  const readAt = (at: number) => {
    now = at;
  };

  beforeAll(async () => {
    tables = await createTestTables();
    for (const vendorId of ['acme', 'globex']) {
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
    }
    handler = testListingHandler(tables, { metrics, now: () => new Date(now) });
    // 1 and 2 in one second (ordered by id), 3 a second later; globex's 50 at the same time.
    await importAt(T0, [vacancyRecord({ id: 2 }), vacancyRecord({ id: 1, title: 'First' })]);
    await importAt(T0 + 1_000, [vacancyRecord({ id: 3, type: 2 })]);
    await importAt(T0 + 1_000, [vacancyRecord({ id: 50, vendor_id: 'globex' })]);
  });
  afterAll(async () => tables.drop());

  it('gives a full sync from 1970: every vacancy in full, its 15 fields then status and updated_at, oldest change first', async () => {
    readAt(T0 + 60_000);
    const body = await sync(FULL);
    expect(body.data.map((change) => change.id)).toEqual([1, 2, 3]);
    for (const change of body.data) {
      expect(Object.keys(change)).toEqual([...SPEC_VACANCY_FIELDS, 'status', 'updated_at']);
      expect(change.status).toBe('active');
      expect(change.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(body.data.map((change) => change.updated_at)).toEqual([iso(T0), iso(T0), iso(T0 + 1_000)]);
    expect(body.company).toBe('Acme LLC');
    expect(body.pagination).toEqual({
      current_page: 1,
      last_page: 1,
      per_page: 15,
      total: 3,
      next_page_url: null,
      prev_page_url: null,
      next_sync_url: `https://api.example.com/prod/vendor/vacancies?updated_since=${encodeURIComponent(iso(T0 + 55_000))}`,
    });
  });

  it('includes changes at updated_since exactly, and keeps per_page and lang in the next sync', async () => {
    readAt(T0 + 60_000);
    const body = await sync(`${since(T0 + 1_000)}&per_page=5&lang=az`);
    expect(body.data.map((change) => change.id)).toEqual([3]);
    expect((body.data[0] as { type: string }).type).toBe('Yarım iş günü');
    expect(body.pagination.next_sync_url).toBe(
      `https://api.example.com/prod/vendor/vacancies?per_page=5&lang=az&updated_since=${encodeURIComponent(iso(T0 + 55_000))}`,
    );
    // Any offset names the same instant: 10:00:01 at +04:00 is 06:00:01Z.
    const offset = await sync('updated_since=2026-11-20T10:00:01.000%2B04:00');
    expect(offset.data.map((change) => change.id)).toEqual([3]);
  });

  it('reports every vacancy no longer listed as a tombstone: id, status, updated_at', async () => {
    now = T0 + 10_000;
    await setVacancyStatus(tables.documentClient, tables.names, 1, 'closed', { now: clock });
    now = T0 + 11_000;
    await deleteVacancy(tables.documentClient, tables.names, 2, { now: clock });
    await importAt(T0 + 12_000, [vacancyRecord({ id: 4, deadline: '2026-11-01' })]);
    readAt(T0 + 60_000);
    const body = await sync(since(T0 + 10_000));
    expect(body.data).toEqual([
      { id: 1, status: 'closed', updated_at: iso(T0 + 10_000) },
      { id: 2, status: 'deleted', updated_at: iso(T0 + 11_000) },
      { id: 4, status: 'expired', updated_at: iso(T0 + 12_000) },
    ]);
  });

  it('leaves what changed within the settle window to the next sync, which has it', async () => {
    await importAt(T0 + 70_000, [vacancyRecord({ id: 5 })]);
    // 3 seconds later: the change is inside the window of what may still be reaching the index.
    readAt(T0 + 73_000);
    const first = await sync(since(T0 + 60_000));
    expect(first.data).toEqual([]);
    expect(first.pagination.next_sync_url).toContain(encodeURIComponent(iso(T0 + 68_000)));
    readAt(T0 + 80_000);
    const next = await sync(new URL(first.pagination.next_sync_url).search.slice(1));
    expect(next.data.map((change) => change.id)).toEqual([5]);
  });

  it('walks pages by next_page_url: a fixed total, current_page counting, no prev link', async () => {
    readAt(T0 + 90_000);
    const seen: number[] = [];
    let query: string | undefined = `${FULL}&per_page=2`;
    const totals = new Set<number>();
    for (let page = 1; query; page += 1) {
      const body = await sync(query);
      expect(body.pagination).toMatchObject({ current_page: page, per_page: 2, prev_page_url: null });
      totals.add(body.pagination.total);
      seen.push(...body.data.map((change) => change.id));
      const next = body.pagination.next_page_url;
      if (next) {
        expect(next).toMatch(
          /\?per_page=2&updated_since=1970-01-01T00%3A00%3A00\.000Z&page=\d+&cursor=[A-Za-z0-9_-]+$/,
        );
        expect(body.pagination.last_page).toBe(Math.ceil(body.pagination.total / 2));
      }
      query = next ? new URL(next).search.slice(1) : undefined;
    }
    expect(seen).toEqual([3, 1, 2, 4, 5]);
    expect([...totals]).toEqual([5]);
  });

  it('moves a vacancy changed during a walk to the next sync', async () => {
    readAt(T0 + 100_000);
    const first = await sync(`${FULL}&per_page=2`);
    expect(first.data.map((change) => change.id)).toEqual([3, 1]);
    // Vacancy 5, not yet seen by the walk, changes: its new time is after the walk's snapshot.
    await importAt(T0 + 100_500, [vacancyRecord({ id: 5, title: 'Changed during the walk' })]);
    readAt(T0 + 101_000);
    const rest: number[] = [];
    let next = first.pagination.next_page_url;
    while (next) {
      const body = await sync(new URL(next).search.slice(1));
      rest.push(...body.data.map((change) => change.id));
      expect(body.pagination.total).toBe(5);
      next = body.pagination.next_page_url;
    }
    expect(rest).toEqual([2, 4]);
    readAt(T0 + 110_000);
    const after = await sync(new URL(first.pagination.next_sync_url).search.slice(1));
    expect(after.data.map((change) => [change.id, 'title' in change && change.title])).toEqual([
      [5, 'Changed during the walk'],
    ]);
  });

  it('reads one unit for a sync that finds nothing: the summary says so', async () => {
    readAt(T0 + 200_000);
    const added = jest.spyOn(metrics, 'count');
    const body = await sync(since(T0 + 150_000));
    expect(body.data).toEqual([]);
    expect(body.pagination.total).toBe(0);
    const units = added.mock.calls.find(([name]) => name === 'readUnits')?.[1];
    const calls = added.mock.calls.find(([name]) => name === 'dynamodbCalls')?.[1];
    added.mockRestore();
    expect(calls).toBe(1);
    expect(units).toBeLessThanOrEqual(1);
  });

  it('refuses what is not an RFC 3339 date-time with a time zone, and parameters that do not go with a sync', async () => {
    const message =
      'The updated_since must be an RFC 3339 date-time with a time zone, such as 2026-11-23T10:15:30Z.';
    for (const value of [
      '2026-11-23T10:15:30',
      '2026-11-23 10:15:30Z',
      '2026-11-23T10:15:30.1234Z',
      '2026-02-30T10:15:30Z',
      '2026-11-23T24:00:00Z',
      '2026-11-23T10:15:60Z',
      '2026-11-23T10:15:30+24:00',
      '2026-11-23',
      '1700000000000',
      'yesterday',
      // Real date-times whose UTC form falls outside the years 0000–9999: a link would carry an extended year.
      '9999-12-31T23:59:59.999-23:59',
      '0000-01-01T00:00:00+23:59',
    ]) {
      const response = await call({ query: `updated_since=${encodeURIComponent(value)}` });
      expect([value, response.statusCode, JSON.parse(response.body).errors]).toEqual([
        value,
        422,
        { updated_since: [message] },
      ]);
    }
    for (const name of ['type', 'experience_min', 'experience_max', 'page']) {
      const response = await call({ query: `${FULL}&${name}=1` });
      expect(JSON.parse(response.body).errors).toEqual({
        [name]: [`The ${name} cannot be combined with updated_since.`],
      });
    }
    // In the order of the parameters: lang, then updated_since, then cursor (`x` could be no walk's cursor).
    const all = await call({ query: 'cursor=x&updated_since=never&lang=fr&type=1' });
    expect(Object.keys(JSON.parse(all.body).errors)).toEqual(['type', 'lang', 'updated_since', 'cursor']);
    const withCursor = await call({ query: `${FULL}&cursor=nonsense` });
    expect(JSON.parse(withCursor.body).errors).toEqual({ cursor: ['The cursor is invalid.'] });
  });

  it('hands out only links it accepts, at the edges of the years it takes', async () => {
    for (const value of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59-00:00']) {
      const first = await sync(`updated_since=${encodeURIComponent(value)}&per_page=1`);
      for (const link of [first.pagination.next_sync_url, first.pagination.next_page_url]) {
        if (link === null) continue;
        const followed = await call({ query: new URL(link).search.slice(1) });
        expect([value, link, followed.statusCode]).toEqual([value, link, 200]);
      }
    }
  });

  it("binds a sync's cursor to the vendor and to updated_since; a listing's cursor is no sync's", async () => {
    readAt(T0 + 300_000);
    const first = await sync(`${FULL}&per_page=1`);
    const next = new URL(first.pagination.next_page_url as string);
    const cursor = next.searchParams.get('cursor') as string;
    // Another vendor with it: refused, never acme's changes.
    const foreign = await call({
      query: next.search.slice(1),
      authorizer: { vendorId: 'globex', company: 'Globex' },
    });
    expect([foreign.statusCode, JSON.parse(foreign.body).errors]).toEqual([
      422,
      { cursor: ['The cursor is invalid.'] },
    ]);
    // Another updated_since with it.
    const moved = await call({ query: `${since(T0)}&per_page=1&page=2&cursor=${cursor}` });
    expect(moved.statusCode).toBe(422);
    // A listing's cursor on a sync, and a sync's on a listing.
    const listing = JSON.parse((await call({ query: 'per_page=1' })).body) as SyncResponse;
    const listingCursor = new URL(listing.pagination.next_page_url as string).searchParams.get('cursor');
    expect((await call({ query: `${FULL}&page=2&cursor=${listingCursor}` })).statusCode).toBe(422);
    expect((await call({ query: `per_page=1&page=2&cursor=${cursor}` })).statusCode).toBe(422);
    // Globex's own sync sees only its own.
    const globex = await sync(FULL, { vendorId: 'globex', company: 'Globex' });
    expect(globex.data.map((change) => change.id)).toEqual([50]);
  });

  it('answers 410 from before the last purge, never to the full sync, and takes a time at the horizon', async () => {
    now = T0 + 400_000;
    const report = await purgeTombstones(tables.documentClient, tables.names, 'acme', T0 + 50_000, {
      now: clock,
    });
    expect(report).toMatchObject({ removed: 1, purgedBefore: T0 + 50_000 });
    readAt(T0 + 400_000);
    const gone = await call({ query: since(T0 + 49_999) });
    expect(gone.statusCode).toBe(410);
    expect(JSON.parse(gone.body)).toEqual({
      status: 'error',
      message: `Changes before ${iso(T0 + 50_000)} are no longer kept; sync again from 1970-01-01T00:00:00Z.`,
      request_id: 'req-1',
    });
    expect(gone.headers).toMatchObject({ 'Cache-Control': 'no-store' });
    expect((await call({ query: since(T0 + 50_000) })).statusCode).toBe(200);
    const full = await sync(FULL);
    // The purged tombstone of 2 is gone; closed 1 and expired 4 stay.
    expect(full.data.map((change) => change.id)).not.toContain(2);
    expect(full.data.map((change) => change.id)).toEqual(expect.arrayContaining([1, 3, 4, 5]));
    expect(INDEX_SETTLE_MS).toBe(5_000);
  });

  it('answers 410 on the next page of a walk that a purge overtook (its horizon is recorded before it removes)', async () => {
    await importAt(T0 + 200_000, [vacancyRecord({ id: 60 }), vacancyRecord({ id: 61 })]);
    readAt(T0 + 500_000);
    const first = await sync(`${since(T0 + 50_000)}&per_page=1`);
    const next = first.pagination.next_page_url as string;
    expect(next).toEqual(expect.any(String));
    // A purge between the walk's pages moves the horizon past where the walk started.
    now = T0 + 500_000;
    await purgeTombstones(tables.documentClient, tables.names, 'acme', T0 + 60_000, { now: clock });
    readAt(T0 + 500_000);
    const overtaken = await call({ query: new URL(next).search.slice(1) });
    expect([overtaken.statusCode, JSON.parse(overtaken.body).message]).toEqual([
      410,
      `Changes before ${iso(T0 + 60_000)} are no longer kept; sync again from 1970-01-01T00:00:00Z.`,
    ]);
    // A walk from the full sync's value is never told so.
    const full = await sync(`${FULL}&per_page=1`);
    expect(
      (await call({ query: new URL(full.pagination.next_page_url as string).search.slice(1) })).statusCode,
    ).toBe(200);
  });
});
