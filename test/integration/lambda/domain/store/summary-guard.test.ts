/**
 * The guards of the summary leases (docs/design.md#a-kill-timeline), on the embedded engine with a fake clock: a writer
 * arms one before it takes a lease and disarms it when it lets go cleanly; a writer that dies leaves it armed, and
 * its firing — with nobody else doing anything — leaves a guard for a lease still running, and recounts the vendor
 * once the lease can be taken over, so that the summary is exact again.
 */

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isCurrent } from '../../../../../lambda/domain/schema/summary';
import { toVacancyItem } from '../../../../../lambda/domain/schema/vacancy-item';
import { LATE_WRITE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import {
  guardTime,
  recoverSummary,
  type SummaryGuardTimer,
} from '../../../../../lambda/domain/store/summary-guard';
import { LEASE_MS } from '../../../../../lambda/domain/store/summary-leases';
import { VacancyWriters } from '../../../../../lambda/domain/store/writers';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { exactCounts, storedSummary, summaryCounts } from '../../../../../testkit/summaries';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

describe("a summary lease's guard", () => {
  let tables: TestTables;
  let now = Date.UTC(2026, 10, 26, 9, 0, 0);
  const clock = () => now;
  /** The guards armed and disarmed, as `vendor@at`. */
  const armed = new Set<string>();
  const disarmed: string[] = [];
  const timer: SummaryGuardTimer = {
    async arm(vendorId, at) {
      armed.add(`${vendorId}@${at}`);
    },
    async disarm(vendorId, at) {
      armed.delete(`${vendorId}@${at}`);
      disarmed.push(`${vendorId}@${at}`);
    },
  };
  const writers = () =>
    new VacancyWriters({ client: tables.documentClient, tables: tables.names, now: clock, guard: timer });
  const put = (id: number, vendorId: string) => () => ({
    put: toVacancyItem(fixtureVacancy(vacancyRecord({ id, vendor_id: vendorId })), now),
  });
  const recover = (vendorId: string) =>
    recoverSummary(vendorId, {
      client: tables.documentClient,
      tables: tables.names,
      timer,
      now: clock,
      sleep: async () => undefined,
    });
  const summary = (vendorId: string) => storedSummary(tables.documentClient, tables.names, vendorId);

  beforeAll(async () => {
    tables = await createTestTables();
    for (const vendorId of ['tidy', 'killed'])
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
  });
  afterAll(async () => tables?.drop());

  it('is armed with the lease and disarmed when the writer lets go cleanly: its firing then does nothing', async () => {
    const writer = writers();
    await writer.write(1, put(1, 'tidy'));
    const guard = `tidy@${guardTime(now + LEASE_MS)}`;
    expect([...armed]).toEqual([guard]);
    await writer.close();
    expect(disarmed).toEqual([guard]);
    expect(armed.size).toBe(0);
    now += LEASE_MS + LATE_WRITE_MS + 5_000;
    expect(await recover('tidy')).toBe('current');
  });

  it('recovers the summary of a writer killed holding its lease, by itself, once the lease can be taken over', async () => {
    const writer = writers();
    const takenAt = now;
    for (let id = 10; id < 15; id += 1) await writer.write(id, put(id, 'killed'));
    // Renewed as a live writer does, then killed: never closed, never heard of again.
    now += LEASE_MS / 2 + 1;
    await writer.write(15, put(15, 'killed'));
    const expires = now + LEASE_MS;
    const first = guardTime(takenAt + LEASE_MS);
    expect(armed).toContain(`killed@${first}`);
    expect(isCurrent((await summary('killed')) as never, first, '2026-11-26', 5_000)).toBe(false);

    // The first guard fires while the renewed lease could still have a write landing: it leaves one for it.
    now = first;
    expect(await recover('killed')).toBe('guarded');
    expect(armed).toContain(`killed@${guardTime(expires)}`);

    // That one finds the lease past its lateness window: the vendor is counted anew, and trusted again.
    now = guardTime(expires);
    expect(await recover('killed')).toBe('recounted');
    const after = await summary('killed');
    expect(after?.leases.size).toBe(0);
    expect(JSON.stringify(summaryCounts(after))).toBe(
      JSON.stringify(await exactCounts(tables.documentClient, tables.names, 'killed')),
    );
    expect(isCurrent(after as never, now + 5_000, '2026-11-26', 5_000)).toBe(true);
  });
});
