/**
 * Walks by `next_page_url` while other writers change the vendor's vacancies (docs/design.md#walks-by-cursor): every
 * vacancy that stays active and matching for the whole walk is seen exactly once, and no vacancy twice — whatever
 * is imported (newer and older), closed, reopened or deleted meanwhile. And a cursor is refused (422) when it was
 * changed, is another vendor's or was made for other filters.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import type { createVacanciesHandler } from '../../../../../lambda/functions/vacancies/factory';
import { deleteVacancy, setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { listingEvent, type TestRequest } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { importRecords as importInto, testListingHandler } from '../../../../../testkit/listing';
import { seededRandom } from '../../../../../testkit/seeded-random';
import { vacancyRecord } from '../../../../../testkit/vacancies';

const STABLE = Array.from({ length: 40 }, (_, i) => 1 + i);
const CHURNED = Array.from({ length: 40 }, (_, i) => 41 + i);
const createdAt = (next: () => number) => {
  const day = 1 + Math.floor(next() * 28);
  const month = 1 + Math.floor(next() * 10);
  return `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')} ${String(Math.floor(next() * 24)).padStart(2, '0')}:00:00`;
};

describe('walks by next_page_url under concurrent writers', () => {
  let tables: TestTables;
  let handler: ReturnType<typeof createVacanciesHandler>;
  const call = (request: TestRequest) => handler(listingEvent(request), lambdaContext('listing'));
  const importRecords = (records: Record<string, unknown>[]) => importInto(tables, records);

  beforeAll(async () => {
    tables = await createTestTables();
    for (const vendorId of ['acme', 'globex']) {
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
    }
    const next = seededRandom(7);
    await importRecords(
      [...STABLE, ...CHURNED].map((id) =>
        vacancyRecord({ id, type: 1 + (id % 2), created_at: createdAt(next), deadline: '2099-12-31' }),
      ),
    );
    await importRecords([vacancyRecord({ id: 500, vendor_id: 'globex' })]);
    handler = testListingHandler(tables);
  });
  afterAll(async () => tables.drop());

  /** Follows next_page_url from page 1; the ids of every page, in order. */
  async function walk(query: string): Promise<number[]> {
    const seen: number[] = [];
    let next: string | undefined = query;
    for (let pages = 0; next !== undefined; pages += 1) {
      if (pages > 200) throw new Error('The walk does not end');
      const response = await call({ query: next });
      expect(response.statusCode).toBe(200);
      const body = JSON.parse(response.body) as ListingResponse;
      seen.push(...body.data.map((vacancy) => vacancy.id));
      next = body.pagination.next_page_url
        ? new URL(body.pagination.next_page_url).search.slice(1)
        : undefined;
    }
    return seen;
  }

  /** Writes until `done()`: imports of new vacancies (newer and older), status flips, deletions, revivals. */
  /**
   * Writes at random until `done`: new vacancies, status flips, deletions, and vacancies brought back with another
   * `created_at` — which moves them in the order, so a walk may meet them at both places (§2 promises exactly once
   * only for what stays active and matching); those are added to `moved`.
   */
  async function churn(seed: number, done: () => boolean, moved: Set<number>): Promise<number> {
    const next = seededRandom(seed);
    let writes = 0;
    let newId = 10_000 + seed * 1_000;
    while (!done()) {
      const id = CHURNED[Math.floor(next() * CHURNED.length)] as number;
      const choice = next();
      if (choice < 0.3) {
        newId += 1;
        await importRecords([
          vacancyRecord({ id: newId, type: 1 + (newId % 2), created_at: createdAt(next) }),
        ]);
      } else if (choice < 0.6) {
        await setVacancyStatus(tables.documentClient, tables.names, id, next() < 0.5 ? 'inactive' : 'active');
      } else if (choice < 0.8) {
        await deleteVacancy(tables.documentClient, tables.names, id);
      } else {
        // A deleted or closed vacancy back, perhaps with another type: it may move in and out of the filter.
        moved.add(id);
        await importRecords([
          vacancyRecord({
            id,
            type: 1 + Math.floor(next() * 2),
            created_at: createdAt(next),
            deadline: '2099-12-31',
          }),
        ]);
      }
      writes += 1;
    }
    return writes;
  }

  it.each([
    ['per_page=7', () => true, 1],
    ['per_page=5&type=1', (id: number) => id % 2 === 0, 2],
    ['per_page=3', () => true, 3],
    ['per_page=7&type=2', (id: number) => id % 2 === 1, 4],
  ])(
    '%s: sees each vacancy active and matching throughout exactly once, and none twice',
    async (query, matches, seed) => {
      let finished = false;
      const moved = new Set<number>();
      const [seen, writes] = await Promise.all([
        walk(query).finally(() => {
          finished = true;
        }),
        churn(seed, () => finished, moved),
      ]);
      expect(writes).toBeGreaterThan(0);
      // Seen twice: only a vacancy that moved in the order during the walk.
      const duplicates = seen.filter((id, i) => seen.indexOf(id) !== i);
      expect(duplicates.filter((id) => !moved.has(id))).toEqual([]);
      const stable = STABLE.filter(matches);
      expect(stable.filter((id) => !seen.includes(id))).toEqual([]);
      expect(seen).not.toContain(500);
    },
  );

  it('refuses a cursor changed by hand, of another vendor or of other filters: 422, naming the cursor', async () => {
    const first = JSON.parse((await call({ query: 'per_page=2&type=1' })).body) as ListingResponse;
    const link = new URL(first.pagination.next_page_url as string);
    const cursor = link.searchParams.get('cursor') as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // The link works as given.
    expect((await call({ query: link.search.slice(1) })).statusCode).toBe(200);

    const flipped = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    for (const [query, authorizer] of [
      [`per_page=2&type=1&page=2&cursor=${flipped}`, undefined],
      [`per_page=2&type=1&page=2&cursor=${cursor}x`, undefined],
      [`per_page=2&type=1&page=2&cursor=${cursor.slice(0, -2)}`, undefined],
      ['per_page=2&type=1&page=2&cursor=not-a-cursor', undefined],
      // The same cursor, for other filters, or for another vendor.
      [`per_page=2&type=2&page=2&cursor=${cursor}`, undefined],
      [`per_page=2&page=2&cursor=${cursor}`, undefined],
      [`per_page=2&type=1&page=2&cursor=${cursor}`, { vendorId: 'globex', company: 'Globex' }],
    ] as const) {
      const response = await call({ query, ...(authorizer && { authorizer }) });
      expect([query, response.statusCode]).toEqual([query, 422]);
      expect(JSON.parse(response.body).errors).toEqual({ cursor: ['The cursor is invalid.'] });
    }
    // After every other invalid parameter.
    const both = await call({ query: `per_page=0&cursor=${flipped}` });
    expect(Object.keys(JSON.parse(both.body).errors)).toEqual(['per_page', 'cursor']);
    // With a filter invalid too, a cursor that could be no walk's is still named; one that could be is not judged.
    for (const [given, named] of [
      ['not-a-cursor', ['type', 'cursor']],
      [`${cursor}x`, ['type', 'cursor']],
      [cursor, ['type']],
    ] as const) {
      const response = await call({ query: `type=9&page=2&cursor=${given}` });
      expect([given, Object.keys(JSON.parse(response.body).errors)]).toEqual([given, named]);
    }
    // `per_page` may change along a walk: the cursor is bound to the vendor and the filters only.
    expect((await call({ query: `per_page=5&type=1&page=2&cursor=${cursor}` })).statusCode).toBe(200);
  });

  it('still reads by position when given a page alone, and links back and forth by cursor', async () => {
    const byPage = JSON.parse((await call({ query: 'per_page=4&page=3' })).body) as ListingResponse;
    const all = await walk('per_page=100');
    expect(byPage.data.map((vacancy) => vacancy.id)).toEqual(all.slice(8, 12));
    // prev_page_url then next_page_url come back to the same page.
    const prevUrl = new URL(byPage.pagination.prev_page_url as string);
    expect(prevUrl.searchParams.get('page')).toBe('2');
    const previous = JSON.parse((await call({ query: prevUrl.search.slice(1) })).body) as ListingResponse;
    expect(previous.data.map((vacancy) => vacancy.id)).toEqual(all.slice(4, 8));
    const back = new URL(previous.pagination.next_page_url as string);
    const again = JSON.parse((await call({ query: back.search.slice(1) })).body) as ListingResponse;
    expect(again.data.map((vacancy) => vacancy.id)).toEqual(all.slice(8, 12));
    expect(again.pagination.current_page).toBe(3);
  });
});
