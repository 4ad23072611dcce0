/**
 * The sync feed exact under faults (docs/design.md#incremental-sync): a copy kept by following `next_page_url` and
 * `next_sync_url` ends equal to the listing — every change delivered, none missed — when operators' clocks are minutes
 * off in both directions, and when writes reach DynamoDB late (their answers after the write window; the requests
 * themselves held for longer than a sync's settle window). The writers run in this process, through a fault proxy
 * where the test needs one; the copy syncs through the listing handler, twice a second.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serverClock } from '../../../../../lambda/domain/store/clock';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../../lambda/platform/dynamodb/document-client';
import { setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { type FaultProxy, startFaultProxy } from '../../../../../testkit/fault-proxy';
import { importRecords } from '../../../../../testkit/listing';
import { exactCounts, storedSummary, summaryCounts } from '../../../../../testkit/summaries';
import { syncedCopy } from '../../../../../testkit/sync-copy';
import { vacancyRecord } from '../../../../../testkit/vacancies';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the sync feed, when operators’ clocks are off', () => {
  let tables: TestTables;
  beforeAll(async () => {
    tables = await createTestTables();
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme' });
    await importRecords(tables, [vacancyRecord({ id: 1 }), vacancyRecord({ id: 2 })]);
  });
  afterAll(async () => tables.drop());

  /** An operator's ops CLI on a machine whose clock is `skewMs` off: its own client, its first answer read. */
  async function operator(skewMs: number) {
    const client = createDocumentClient(createDynamoDBClient({ endpoint: tables.endpoint }));
    const now = serverClock(client, () => Date.now() + skewMs);
    await client.send(new GetCommand({ TableName: tables.names.vendors, Key: { pk: 'nothing' } }));
    return { client, now };
  }

  it.each([
    [300_000, -300_000],
    [-300_000, 300_000],
    [8_000, 0],
  ])(
    'delivers what an operator %i ms off imports, then what one %i ms off closes',
    async (skewA, skewB) => {
      const copy = syncedCopy(tables, 'acme');
      await sleep(5_500);
      expect(await copy.syncUntilEqual(15_000)).toBe(true);
      const a = await operator(skewA);
      const b = await operator(skewB);
      const base = 100 + Math.abs(skewA % 97);
      await importRecords(
        { ...tables, documentClient: a.client },
        [vacancyRecord({ id: base }), vacancyRecord({ id: base + 1 }), vacancyRecord({ id: base + 2 })],
        { now: a.now },
      );
      await sleep(2_000);
      await setVacancyStatus(b.client, tables.names, 1 + (base % 2), 'closed', { now: b.now });
      // Every change within a sync that starts a settle window (5 s) after it landed — bounded here at 20 s.
      expect(await copy.syncUntilEqual(20_000)).toBe(true);
      await setVacancyStatus(tables.documentClient, tables.names, 1 + (base % 2), 'active');
    },
    60_000,
  );
});

describe('the sync feed, when writes reach DynamoDB late', () => {
  let tables: TestTables;
  let proxied: TestTables;
  let proxy: FaultProxy;
  beforeAll(async () => {
    tables = await createTestTables();
    proxy = await startFaultProxy(tables.endpoint);
    proxied = {
      ...tables,
      documentClient: createDocumentClient(createDynamoDBClient({ endpoint: proxy.endpoint })),
    };
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme' });
  });
  afterAll(async () => {
    await proxy.stop();
    await tables.drop();
  });

  it.each([
    ['its answer comes after the write window (2.5 s)', 'delay-answer', 2_500, 1],
    ['the request reaches DynamoDB after a sync passed its stamp (7.5 s, four tries)', 'delay', 7_500, 4],
  ] as const)(
    'counts and delivers a write whose %s',
    async (_what, kind, delayMs, times) => {
      const copy = syncedCopy(tables, 'acme');
      await copy.sync();
      const id = 500 + delayMs;
      proxy.inject({ operation: 'PutItem', kind, delayMs, times });
      // The copy syncs twice a second while the write is under way.
      let writing = true;
      const syncing = (async () => {
        while (writing) {
          await copy.sync();
          await sleep(500);
        }
      })();
      const report = await importRecords(proxied, [vacancyRecord({ id, title: `Late ${id}` })]);
      writing = false;
      await syncing;
      await proxy.clear();
      expect(report).toMatchObject({ imported: 1, unchanged: 0 });
      // What was sent late and tried again is counted once.
      await sleep(delayMs);
      const summary = await storedSummary(tables.documentClient, tables.names, 'acme');
      expect(summary?.leases.size).toBe(0);
      expect(summaryCounts(summary)).toEqual(await exactCounts(tables.documentClient, tables.names, 'acme'));
      expect(await copy.syncUntilEqual(15_000)).toBe(true);
    },
    90_000,
  );
});
