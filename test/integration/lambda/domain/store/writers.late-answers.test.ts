/**
 * Exact under late answers (docs/design.md#the-summary): the ops CLI imports through a proxy that holds one
 * answer of DynamoDB past the CLI's 3-second timeout — the update was applied, the SDK sends it again. The summary's
 * updates are numbered per lease, so the repeat is refused and known as applied: the summary ends exactly what the
 * index holds, never a count added twice.
 */

import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { toVacancyItem } from '../../../../../lambda/domain/schema/vacancy-item';
import { VacancyWriters } from '../../../../../lambda/domain/store/writers';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../../lambda/platform/dynamodb/document-client';
import { putVendor } from '../../../../../lib/ops/vendors';
import { cliTarget, runAdmin } from '../../../../../testkit/admin-cli';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { type FaultProxy, startFaultProxy } from '../../../../../testkit/fault-proxy';
import { exactCounts, storedSummary, summaryCounts } from '../../../../../testkit/summaries';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

const RECORDS = 300;

describe('a summary update whose answer comes after the timeout, and is sent again', () => {
  let tables: TestTables;
  let proxy: FaultProxy;
  const folder = mkdtempSync(join(tmpdir(), 'late-answers-'));

  beforeAll(async () => {
    tables = await createTestTables();
    proxy = await startFaultProxy(tables.endpoint);
  });
  afterAll(async () => {
    await proxy?.stop();
    await tables?.drop();
  });

  // The import's summary updates, in order: the lease taken, the latest stamp raised, the counts added as it lets go.
  it.each([1, 2, 3])(
    'is applied once when it is update %i of the import',
    async (update) => {
      const vendorId = `late-${update}`;
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
      const file = join(folder, `${vendorId}.ndjson`);
      const records = Array.from({ length: RECORDS }, (_, i) =>
        vacancyRecord({ id: update * 10_000 + i, vendor_id: vendorId, type: 1 + (i % 4) }),
      );
      await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n'));

      proxy.inject({
        operation: 'UpdateItem',
        kind: 'delay-answer',
        after: update - 1,
        times: 1,
        delayMs: 3_500,
      });
      const run = await runAdmin([...cliTarget(proxy.endpoint, tables.names), 'vacancies', 'import', file]);
      await proxy.clear();
      expect([run.code, run.stdout]).toEqual([0, expect.stringContaining(`imported ${RECORDS}, rejected 0`)]);

      const summary = await storedSummary(tables.documentClient, tables.names, vendorId);
      expect(summary?.broken).toBe(false);
      expect(summary?.leases.size).toBe(0);
      expect(summaryCounts(summary)).toEqual(
        await exactCounts(tables.documentClient, tables.names, vendorId),
      );
    },
    60_000,
  );
});

describe('a summary update that gets no answer at all', () => {
  it('halts the lease: never a later update taken for it, and the summary untrusted until a recount', async () => {
    const tables = await createTestTables();
    const proxy = await startFaultProxy(tables.endpoint);
    // A writer whose calls get one try of 2 s — time for every answer not held, on a loaded machine too: the held
    // answer (4 s) is lost to it, the update applied all the same.
    const client = createDocumentClient(
      createDynamoDBClient({ endpoint: proxy.endpoint, maxAttempts: 1, requestTimeoutMs: 2_000 }),
    );
    try {
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'silent', company: 'Silent' });
      const writers = new VacancyWriters({ client, tables: tables.names, flushMs: 0 });
      const put = (id: number) =>
        writers.write(id, (_current, at) => ({
          put: toVacancyItem(
            fixtureVacancy(vacancyRecord({ id, vendor_id: 'silent', type: 1 + (id % 4) })),
            at,
          ),
        }));
      await put(1);
      // The next flush (the summary's second update) is applied, but its answer never comes in time.
      proxy.inject({ operation: 'UpdateItem', kind: 'delay-answer', after: 0, times: 1, delayMs: 4_000 });
      await expect(put(2)).rejects.toBeDefined();
      await proxy.clear();
      await expect(put(3)).rejects.toMatchObject({ name: 'SummaryLeaseLostError' });
      await writers.close();
      await new Promise((resolve) => setTimeout(resolve, 4_200));
      const summary = await storedSummary(tables.documentClient, tables.names, 'silent');
      const exact =
        JSON.stringify(summaryCounts(summary)) ===
        JSON.stringify(await exactCounts(tables.documentClient, tables.names, 'silent'));
      // Exact, or not trusted: its lease is still there.
      expect(exact || (summary?.leases.size ?? 0) > 0).toBe(true);
      expect(summary?.leases.size).toBe(1);
    } finally {
      client.destroy();
      await proxy.stop();
      await tables.drop();
    }
  }, 30_000);
});
