/**
 * A listing polled across the end of its writer's settle window (docs/design.md#etags), on a fake clock: a page read
 * inside the window is tagged by its bytes; once the window closes the same body is tagged by the summary, yet a
 * poll holding the bytes' tag is a 304 that keeps it — and any change since is a 200.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { importRecords, testListingHandler } from '../../../../../testkit/listing';
import { storedSummary } from '../../../../../testkit/summaries';
import { vacancyRecord } from '../../../../../testkit/vacancies';

const records = (ids: readonly number[]) =>
  ids.map((id) =>
    vacancyRecord({
      id,
      url: `https://acme.example/jobs/${id}`,
      created_at: `2026-06-01 10:00:${String(id % 60).padStart(2, '0')}`,
    }),
  );

describe('a listing polled across the end of the settle window', () => {
  let tables: TestTables;
  /** The handler's clock, set by each step: the writer's release time plus an offset. */
  let now = 0;
  const handler = () => testListingHandler(tables, { now: () => new Date(now) });
  const call = (request: TestRequest): Promise<APIGatewayProxyResult> =>
    handler()(listingEvent(request), lambdaContext('listing'));
  /** When the vendor's last writer let go, as the summary says. */
  const releasedAt = async () => {
    const summary = await storedSummary(tables.documentClient, tables.names, 'acme');
    if (summary?.releasedAt === undefined) throw new Error('the import left no settled summary');
    return summary.releasedAt;
  };

  beforeAll(async () => {
    tables = await createTestTables();
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme' });
  });
  afterAll(async () => tables?.drop());

  it('keeps an unchanged body its tag: a 304 after the window for the tag given inside it', async () => {
    await importRecords(tables, records([1, 2, 3, 4, 5, 6, 7]));
    const released = await releasedAt();
    const query = 'per_page=3&lang=en';

    now = released + 1_000;
    const inside = await call({ query });
    expect(inside.statusCode).toBe(200);
    const insideTag = String(inside.headers?.ETag);
    expect(insideTag).toMatch(/^"b/);

    now = released + INDEX_SETTLE_MS + 1_000;
    // Without the old tag the same body now has the summary's tag: the window is part of which tag a body gets.
    const after = await call({ query });
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(inside.body);
    const afterTag = String(after.headers?.ETag);
    expect(afterTag).toMatch(/^"s/);

    const polled = await call({ query, headers: { 'If-None-Match': insideTag } });
    expect(polled.statusCode).toBe(304);
    expect(polled.body).toBe('');
    expect(polled.headers?.ETag).toBe(insideTag);
    // The summary's tag answers on its own read, as before; a tag of another body does not match.
    expect((await call({ query, headers: { 'If-None-Match': afterTag } })).statusCode).toBe(304);
    const otherPage = await call({ query: `${query}&page=2`, headers: { 'If-None-Match': insideTag } });
    expect(otherPage.statusCode).toBe(200);
  });

  it('never hides a change: the tag given inside the window gets a 200 once the body changed', async () => {
    const query = 'per_page=3';
    now = (await releasedAt()) + INDEX_SETTLE_MS + 1_000;
    await importRecords(tables, records([20, 21]));
    const released = await releasedAt();
    now = released + 500;
    const inside = await call({ query });
    expect(String(inside.headers?.ETag)).toMatch(/^"b/);

    // A vacancy written after the page was read, and the window of that write ends.
    await importRecords(tables, records([59]));
    now = (await releasedAt()) + INDEX_SETTLE_MS + 1_000;
    const polled = await call({ query, headers: { 'If-None-Match': String(inside.headers?.ETag) } });
    expect(polled.statusCode).toBe(200);
    expect(polled.body).not.toBe(inside.body);
    expect(JSON.parse(polled.body).data[0].id).toBe(59);
  });
});
