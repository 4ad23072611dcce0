/**
 * Incremental sync over real HTTP, every answer held to docs/openapi.yaml: both item shapes of a sync (a vacancy in
 * full, a tombstone), its pagination with `next_sync_url`, its 422s and the 410 after a purge.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SyncResponse } from '../../../lambda/functions/vacancies/bodies';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { deleteVacancy, purgeTombstones, setVacancyStatus } from '../../../lib/ops/vacancies';
import { documentedFetch } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;
const HEADERS = { Authorization: 'Bearer vvk_test_acme_first' };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('incremental sync over HTTP', () => {
  let api: LocalApi;
  let client: ReturnType<typeof createDocumentClient>;
  const sync = async (query: string) => {
    const response = await documentedFetch(`${api.url}/vendor/vacancies?${query}`, { headers: HEADERS });
    expect(response.status).toBe(200);
    return (await response.json()) as SyncResponse;
  };

  beforeAll(async () => {
    api = await startLocalApi({ port: 0, dynamodbPort: 0, seedFile: SEED_FILE });
    client = createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));
    // The seed is loaded as the server starts: past the settle window, it is all in a sync.
    await wait(5_500);
  });
  afterAll(async () => {
    client.destroy();
    await api?.stop();
  });

  let nextSync: string;
  it('gives every vacancy of the vendor in a full sync, in both shapes, as described', async () => {
    const body = await sync('updated_since=1970-01-01T00:00:00Z&lang=en');
    const statuses = new Set(body.data.map((change) => change.status));
    expect(statuses.has('active')).toBe(true);
    // The seed has vacancies that are not listed: they come as tombstones.
    expect([...statuses].some((status) => status !== 'active')).toBe(true);
    expect(
      body.pagination.next_sync_url.startsWith(`${api.url}/vendor/vacancies?lang=en&updated_since=`),
    ).toBe(true);
    nextSync = body.pagination.next_sync_url;
  });

  it('gives what changed since, and the 410 once a purge has made the time too old', async () => {
    const active = (await sync('updated_since=1970-01-01T00:00:00Z')).data.filter(
      (c) => c.status === 'active',
    );
    const [first, second] = active.map((change) => change.id);
    await setVacancyStatus(client, api.tables, first as number, 'closed');
    await deleteVacancy(client, api.tables, second as number);
    await wait(5_500);
    const changes = await sync(new URL(nextSync).search.slice(1));
    expect(changes.data).toEqual([
      { id: first, status: 'closed', updated_at: expect.any(String) },
      { id: second, status: 'deleted', updated_at: expect.any(String) },
    ]);

    await purgeTombstones(client, api.tables, 'acme', Date.now());
    const gone = await documentedFetch(nextSync, { headers: HEADERS });
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { message: string }).message).toMatch(
      /^Changes before \S+ are no longer kept; sync again from 1970-01-01T00:00:00Z\.$/,
    );
  });

  it('refuses a bad updated_since and the parameters that do not go with it, as described', async () => {
    for (const query of ['updated_since=2026-11-23', 'updated_since=1970-01-01T00:00:00Z&type=1']) {
      const response = await documentedFetch(`${api.url}/vendor/vacancies?${query}`, { headers: HEADERS });
      expect(response.status).toBe(422);
    }
  });
});
