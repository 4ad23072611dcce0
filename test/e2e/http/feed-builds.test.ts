/**
 * Feeds built by the local server as a job board meets them (docs/design.md#feeds): a feed an operator adds is built
 * after that write, without a key at its URL; a vacancy closed through the tools leaves it at the next build, one
 * imported joins it; each build is the vendor's listing — its vacancies, in its order — and well-formed to libxml2.
 * Each step waits for the server's background work to be done (`idle()`), the settle window shortened to its least.
 *
 * @jest-environment-options {"env": {"VVA_SETTLE_MS": "1000"}}
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { feedUrl } from '../../../lambda/domain/feed-registry/feed';
import { FeedStore } from '../../../lambda/domain/feed-registry/feed-store';
import { parseImportFile } from '../../../lambda/domain/import/file';
import { importVacancies } from '../../../lambda/domain/import/import';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { setVacancyStatus } from '../../../lib/ops/vacancies';
import { CLOCK, vacancyRecord } from '../../../testkit/vacancies';
import { libxml2Errors, parseXml } from '../../../testkit/xml';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;

describe('feeds built by the local server', () => {
  let api: LocalApi;
  let store: FeedStore;
  let documentClient: ReturnType<typeof createDocumentClient>;
  let url: string;

  /** The feed's job ids once the server's work is done (fetched without a key). */
  const jobs = async () => {
    await api.idle();
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(await libxml2Errors([{ name: 'indeed.xml', text }])).toEqual([]);
    const found = (parseXml(text, ['job']).source as { job?: { referencenumber: string }[] }).job ?? [];
    return found.map((job) => Number(job.referencenumber));
  };

  beforeAll(async () => {
    api = await startLocalApi({ port: 0, dynamodbPort: 0, seedFile: SEED_FILE });
    documentClient = createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));
    store = new FeedStore(documentClient, api.tables.vendors);
    const placed = await store.add('acme', 'indeed', 'en');
    if (!('added' in placed)) throw new Error('no place for the feed');
    url = feedUrl(api.url, placed.added);
  });
  afterAll(async () => {
    documentClient?.destroy();
    await api?.stop();
  });

  it("builds a feed after it is added: the vendor's listable vacancies, newest first", async () => {
    // The seed's acme: 1 to 5 listable (6 closed, 7 past its deadline), of which the listing shows the same.
    const listing = (await (
      await fetch(`${api.url}/vendor/vacancies?per_page=100`, {
        headers: { Authorization: 'Bearer vvk_test_acme_first' },
      })
    ).json()) as { data: { id: number }[] };
    const ids = await jobs();
    expect(ids).toEqual(listing.data.map((vacancy) => vacancy.id));
    expect([...ids].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes a closed vacancy out at the next build, and puts an imported one in', async () => {
    await setVacancyStatus(documentClient, api.tables, 3, 'closed', { clock: CLOCK });
    expect([...(await jobs())].sort()).toEqual([1, 2, 4, 5]);
    await importVacancies(
      documentClient,
      api.tables,
      parseImportFile(
        JSON.stringify(vacancyRecord({ id: 42, vendor_id: 'acme', created_at: '2026-11-01T09:00:00Z' })),
      ),
      { clock: CLOCK },
    );
    const ids = await jobs();
    expect(ids).toContain(42);
    expect(ids).not.toContain(3);
  });
});
