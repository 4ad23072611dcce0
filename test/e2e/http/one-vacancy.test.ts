/**
 * One vacancy over real HTTP (docs/api.md#one-vacancy), against the local server with the test seed: a vacancy of
 * the key's vendor that is no longer open — closed, expired, deleted — answers 410 with when it closed, passed through
 * the API Gateway stand-in as the function wrote it (status, headers, body), JSON whatever `Accept` asks for; another
 * vendor's closed vacancy is the 404; every response is held to docs/openapi.yaml.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { deleteVacancy, setVacancyStatus } from '../../../lib/ops/vacancies';
import { documentedFetch } from '../../../testkit/openapi';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;
/** Acme's: its vacancy 6 is closed, 7 was past its deadline when seeded (recorded expired), 1 to 5 are active. */
const ACME = 'vvk_test_acme_first';
/** Globex's: its vacancy 8 is active, until the test closes it. */
const GLOBEX = 'vvk_test_globex';

describe('GET /vendor/vacancies/{id} of a vacancy no longer open, over HTTP', () => {
  let api: LocalApi;
  let documentClient: ReturnType<typeof createDocumentClient>;

  // Every response, held to docs/openapi.yaml.
  const get = (id: number, key: string, headers: Record<string, string> = {}) =>
    documentedFetch(`${api.url}/vendor/vacancies/${id}`, {
      headers: { Authorization: `Bearer ${key}`, ...headers },
    });
  /** When the stored vacancy last changed, as a sync writes it. */
  const updatedAt = async (id: number) => {
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: api.tables.vacancies, Key: { id } }),
    );
    return new Date(Number(Item?.updated_at)).toISOString();
  };

  /** The 410 envelope, its request id the X-Request-Id header's, and the 404's headers with the route's caching. */
  async function expectGone(response: Response, closedAt: string) {
    expect(response.status).toBe(410);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('vary')).toBeNull();
    expect(response.headers.get('etag')).toBeNull();
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.text()).toBe(
      JSON.stringify({
        status: 'error',
        message: 'This vacancy is no longer open.',
        closed_at: closedAt,
        request_id: requestId,
      }),
    );
  }

  beforeAll(async () => {
    api = await startLocalApi({ port: 0, dynamodbPort: 0, seedFile: SEED_FILE });
    documentClient = createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));
  });
  afterAll(async () => {
    documentClient?.destroy();
    await api?.stop();
  });

  it('answers 410 for the vendor’s closed and expired vacancies, closed_at their change’s updated_at', async () => {
    await expectGone(await get(6, ACME), await updatedAt(6));
    await expectGone(await get(7, ACME), await updatedAt(7));
    // An active one is still a 200.
    expect((await get(1, ACME)).status).toBe(200);
  });

  it('answers 410 as JSON to Accept: application/ld+json and to a poll with If-None-Match', async () => {
    const closedAt = await updatedAt(6);
    await expectGone(await get(6, ACME, { Accept: 'application/ld+json' }), closedAt);
    await expectGone(await get(6, ACME, { Accept: 'application/ld+json', 'If-None-Match': '*' }), closedAt);
  });

  it('answers 410 for a vacancy the operator deleted, closed_at its tombstone’s updated_at', async () => {
    expect((await get(5, ACME)).status).toBe(200);
    await deleteVacancy(documentClient, api.tables, 5);
    await expectGone(await get(5, ACME), await updatedAt(5));
  });

  it('tells another vendor nothing: its closed vacancy is the 404, the 410 is its owner’s only', async () => {
    await setVacancyStatus(documentClient, api.tables, 8, 'closed');
    const foreign = await get(8, ACME);
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('cache-control')).toBe('no-store');
    expect(((await foreign.json()) as { message: string }).message).toBe('Vacancy not found.');
    await expectGone(await get(8, GLOBEX), await updatedAt(8));
    // And the vendor's own 410 is never another's: Globex asking for Acme's closed vacancy is the 404 too.
    expect((await get(6, GLOBEX)).status).toBe(404);
  });
});
