/**
 * A copy of one vendor's vacancies kept as a sync client keeps it (docs/api.md#incremental-sync) — every page of a
 * sync walked by `next_page_url` and applied in order, then resumed from `next_sync_url` — through the listing
 * handler, and the listing to compare it with: what the sync tests check a copy against.
 */
import type { DatabaseSync } from 'node:sqlite';
import { expect } from '@jest/globals';
import { copiedVacancies } from '../examples/sync/sync';
import type { ListingResponse, SyncResponse } from '../lambda/functions/vacancies/bodies';
import type { TestTables } from './dynamodb';
import { listingEvent } from './events';
import { lambdaContext } from './lambda';
import { testListingHandler } from './listing';

/** A vendor's vacancies by id, each as JSON, sorted by id. */
export type VacancyEntries = [number, string][];

const sorted = (map: ReadonlyMap<number, string>): VacancyEntries => [...map].sort(([a], [b]) => a - b);
const queryOf = (url: string | null) => (url ? new URL(url).search.slice(1) : undefined);

/** A copy of `vendorId`'s vacancies on `tables`, synced `perPage` changes a page. */
export function syncedCopy(
  tables: Pick<TestTables, 'client' | 'names'>,
  vendorId: string,
  options: { readonly perPage?: number } = {},
) {
  const handler = testListingHandler(tables);
  const authorizer = { vendorId, company: vendorId };
  const get = async <T>(query: string): Promise<T> => {
    const response = await handler(listingEvent({ query, authorizer }), lambdaContext('listing'));
    expect([query, response.statusCode]).toEqual([query, 200]);
    return JSON.parse(response.body) as T;
  };
  const copy = new Map<number, string>();
  let next = `updated_since=1970-01-01T00:00:00Z&per_page=${options.perPage ?? 50}`;

  /** One sync, walked to its end and applied, oldest change first. */
  const sync = async () => {
    for (let query: string | undefined = next; query; ) {
      const body = await get<SyncResponse>(query);
      for (const change of body.data) {
        if (change.status === 'active') {
          const { status: _status, updated_at: _at, ...vacancy } = change as Record<string, unknown>;
          copy.set(change.id, JSON.stringify(vacancy));
        } else copy.delete(change.id);
      }
      next = queryOf(body.pagination.next_sync_url) ?? next;
      query = queryOf(body.pagination.next_page_url);
    }
  };
  /** What the listing returns, walked to its end. */
  const listed = async (): Promise<VacancyEntries> => {
    const vacancies = new Map<number, string>();
    for (let query: string | undefined = 'per_page=100'; query; ) {
      const body = await get<ListingResponse>(query);
      for (const vacancy of body.data) vacancies.set(vacancy.id, JSON.stringify(vacancy));
      query = queryOf(body.pagination.next_page_url);
    }
    return sorted(vacancies);
  };
  return {
    sync,
    listed,
    /** The copy's vacancies. */
    entries: (): VacancyEntries => sorted(copy),
    /** Syncs twice a second until the copy equals the listing, for `withinMs` at most; whether it did. */
    async syncUntilEqual(withinMs: number): Promise<boolean> {
      const started = Date.now();
      for (;;) {
        await sync();
        if (JSON.stringify(sorted(copy)) === JSON.stringify(await listed())) return true;
        if (Date.now() - started > withinMs) return false;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
  };
}

/** What a local server's listing returns over HTTP with `apiKey`, walked to the end in English: the objects, by id. */
export async function listedOverHttp(apiUrl: string, apiKey: string): Promise<Record<string, unknown>[]> {
  const vacancies: Record<string, unknown>[] = [];
  let url: string | null = `${apiUrl}/vendor/vacancies?per_page=100&lang=en`;
  while (url) {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
    const body = (await response.json()) as ListingResponse;
    vacancies.push(...(body.data as unknown as Record<string, unknown>[]));
    url = body.pagination.next_page_url;
  }
  return vacancies.sort((a, b) => (a.id as number) - (b.id as number));
}

/** The reference sync client's copy (examples/sync) as the listing shows it: without what only a sync adds. */
export const copyAsListed = (db: DatabaseSync) =>
  copiedVacancies(db).map(({ status: _status, updated_at: _updatedAt, ...vacancy }) => vacancy);
