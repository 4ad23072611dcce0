/**
 * Syncs while writers change the vendor's vacancies (docs/design.md#incremental-sync), in real time: a copy kept by
 * applying every sync — walked by `next_page_url`, then resumed from `next_sync_url` — ends equal to the listing
 * once the writers stop and the settle window has passed. So every change made while a walk ran was delivered by
 * that sync or a later one, deletions and status changes included.
 */

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';

import { deleteVacancy, setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { importRecords as importInto } from '../../../../../testkit/listing';
import { syncedCopy } from '../../../../../testkit/sync-copy';
import { vacancyRecord } from '../../../../../testkit/vacancies';

describe('syncs under concurrent writers', () => {
  let tables: TestTables;
  const importRecords = (records: Record<string, unknown>[]) => importInto(tables, records);

  beforeAll(async () => {
    tables = await createTestTables();
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme' });
    await importRecords(
      Array.from({ length: 30 }, (_, i) => vacancyRecord({ id: 1 + i, title: `Job ${1 + i}` })),
    );
  });
  afterAll(async () => tables.drop());

  it('delivers every change by the sync during which it was made, or a later one', async () => {
    const copy = syncedCopy(tables, 'acme', { perPage: 4 });
    const syncOnce = copy.sync;

    let writing = true;
    let writes = 0;
    const writer = (async () => {
      for (let round = 0; writing; round += 1) {
        const id = 1 + ((round * 7) % 40);
        switch (round % 4) {
          case 0:
            await importRecords([vacancyRecord({ id, title: `Job ${id}, version ${round}` })]);
            break;
          case 1:
            await setVacancyStatus(
              tables.documentClient,
              tables.names,
              id,
              round % 8 === 1 ? 'closed' : 'active',
            );
            break;
          case 2:
            await deleteVacancy(tables.documentClient, tables.names, id);
            break;
          default:
            await importRecords([vacancyRecord({ id, type: 2, created_at: '2026-02-01 09:00:00' })]);
        }
        writes += 1;
      }
    })();
    // Syncs for 4 seconds of writes at least — and, however slow the machine, until both sides did enough to
    // overlap (the counts asserted below are reached by the loop, not hoped for in a wall-time window).
    const started = Date.now();
    let syncs = 0;
    while ((Date.now() - started < 4_000 || writes <= 20 || syncs <= 3) && Date.now() - started < 100_000) {
      await syncOnce();
      syncs += 1;
    }
    writing = false;
    await writer;
    // Once the last write is older than the settle window, one more sync brings the copy up to date.
    await new Promise((resolve) => setTimeout(resolve, INDEX_SETTLE_MS + 1_500));
    await syncOnce();

    expect(writes).toBeGreaterThan(20);
    expect(syncs).toBeGreaterThan(3);
    expect(copy.entries()).toEqual(await copy.listed());
  }, 180_000);
});
