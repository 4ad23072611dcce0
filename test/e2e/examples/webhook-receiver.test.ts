/**
 * The reference webhook receiver (examples/webhook-receiver) end to end on the local server: it is told of every
 * change the operator makes — imports, a close, a deletion, an expiry recorded by the job — verifies each delivery
 * with `standardwebhooks`, and syncs its SQLite copy with the reference sync client; after the last event its copy
 * equals a full listing. Nobody polls: each sync follows an event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openCopy } from '../../../examples/sync/sync';
import { createReceiver } from '../../../examples/webhook-receiver/receiver';
import { writeVacancies } from '../../../lambda/domain/import/import';
import { toVacancyItem } from '../../../lambda/domain/schema/vacancy-item';
import { VacancyWriters } from '../../../lambda/domain/store/writers';
import { runExpiry } from '../../../lambda/functions/expiry/job';
import { signedHeaders } from '../../../lambda/functions/webhooks/signature';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { type LocalApi, startLocalApi } from '../../../lib/local/local-api';
import { deleteVacancy, setVacancyStatus } from '../../../lib/ops/vacancies';
import { addEndpoint } from '../../../lib/ops/webhooks';
import { copyAsListed, listedOverHttp } from '../../../testkit/sync-copy';
import { CLOCK, fixtureVacancy, vacancyRecord } from '../../../testkit/vacancies';

const SEED_FILE = new URL('../../fixtures/seed.json', import.meta.url).pathname;
const VENDOR = 'globex';
const KEY = 'vvk_test_globex';

describe('the reference webhook receiver (examples/webhook-receiver)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'webhook-receiver-'));
  const db = openCopy(join(folder, 'copy.db'));
  let api: LocalApi;
  let documents: ReturnType<typeof createDocumentClient>;
  let receiver: ReturnType<typeof createReceiver>;
  const server = createServer();
  let secret = '';
  const syncs: { report?: unknown; error?: unknown }[] = [];

  const listed = () => listedOverHttp(api.url, KEY);
  const copy = () => copyAsListed(db);

  /**
   * Waits until the receiver's copy equals the listing — only events make it sync. At most 60 s: a delivery comes
   * within seconds, but a full suite on 2 cores has been seen to take 30 s and more.
   */
  async function untilEqual() {
    const expected = await listed();
    const deadline = Date.now() + 60_000;
    while (JSON.stringify(copy()) !== JSON.stringify(expected) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await receiver.idle();
    }
    expect(copy()).toEqual(expected);
  }

  const importRecords = async (records: Record<string, unknown>[]) => {
    const report = await writeVacancies(
      documents,
      api.tables,
      records.map((record, line) => ({ line: line + 1, vacancy: fixtureVacancy(record) })),
      { clock: CLOCK },
    );
    expect(report.imported).toBe(records.length);
  };

  beforeAll(async () => {
    api = await startLocalApi({ port: 0, seedFile: SEED_FILE });
    documents = createDocumentClient(createDynamoDBClient({ endpoint: api.dynamodbEndpoint }));
    // The receiver's server first (its port is the endpoint's URL), then the endpoint, then the receiver with its secret.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const endpoint = await addEndpoint(documents, api.tables.vendors, VENDOR, `http://127.0.0.1:${port}/`, {
      allowLoopbackHttp: true,
    });
    secret = endpoint.secret;
    receiver = createReceiver({
      secret: endpoint.secret,
      apiKey: KEY,
      baseUrl: api.url,
      db,
      lang: 'en',
      onSync: (outcome) => syncs.push(outcome),
    });
    server.on('request', receiver.handler);
  });
  afterAll(async () => {
    server.close();
    await receiver?.idle();
    documents?.destroy();
    await api?.stop();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps its copy equal to the listing while vacancies are imported, closed, deleted and expired', async () => {
    await importRecords([
      vacancyRecord({ id: 66_001, vendor_id: VENDOR, title: 'Pushed one' }),
      vacancyRecord({ id: 66_002, vendor_id: VENDOR, title: 'Pushed two' }),
      vacancyRecord({ id: 66_003, vendor_id: VENDOR, title: 'Pushed three' }),
    ]);
    await untilEqual();
    expect(copy().map((vacancy) => vacancy.id)).toEqual(expect.arrayContaining([66_001, 66_002, 66_003]));

    await setVacancyStatus(documents, api.tables, 66_001, 'closed');
    await deleteVacancy(documents, api.tables, 66_002);
    await untilEqual();
    expect(copy().map((vacancy) => vacancy.id)).not.toEqual(expect.arrayContaining([66_001]));

    // Its deadline passes overnight (written as the service writes: the clock cannot be moved), and the job records it.
    const yesterday = new Date(`${CLOCK.today(new Date())}T00:00:00Z`);
    yesterday.setUTCDate(yesterday.getUTCDate() - 1);
    const writers = new VacancyWriters({ client: documents, tables: api.tables });
    const overdue = fixtureVacancy(
      vacancyRecord({
        id: 66_003,
        vendor_id: VENDOR,
        title: 'Pushed three',
        deadline: yesterday.toISOString().slice(0, 10),
      }),
    );
    await writers.write(66_003, (_current, updatedAt) => ({ put: toVacancyItem(overdue, updatedAt) }));
    await writers.close();
    expect((await runExpiry({ client: documents, tables: api.tables, clock: CLOCK })).expired).toBe(1);
    await untilEqual();
    expect(copy().map((vacancy) => vacancy.id)).not.toContain(66_003);
    expect(syncs.filter((outcome) => outcome.error)).toEqual([]);
  }, 240_000);

  it('refuses a delivery not signed with its secret, and takes the same event once', async () => {
    const { port } = server.address() as AddressInfo;
    const before = syncs.length;
    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
        'content-type': 'application/json',
      },
      body: '{"type":"vacancies.changed","data":{"resync_required":true}}',
    });
    expect(forged.status).toBe(401);
    await receiver.idle();
    expect(syncs.length).toBe(before);
    // A signed event, delivered twice (a retry whose first answer was lost): one sync.
    const body = JSON.stringify({
      type: 'vacancies.changed',
      timestamp: new Date().toISOString(),
      data: { changes: [] },
    });
    for (let delivery = 0; delivery < 2; delivery += 1) {
      const headers = signedHeaders('msg_twice', Math.floor(Date.now() / 1000), body, [secret]);
      const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers, body });
      expect(answer.status).toBe(204);
      await receiver.idle();
    }
    expect(syncs.length).toBe(before + 1);
  });
});
