/**
 * The writers' leases on a summary (docs/design.md#the-summary): a reader distrusts the summary while any lease is
 * there; a writer whose lease ran out and was taken over by a recount writes no more and marks the summary broken;
 * a recount waits for live leases and gives way to a writer that starts while it counts.
 */

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dayNumber } from '../../../../../lambda/domain/schema/active-index';
import { countAttribute, dayAttribute, isCurrent } from '../../../../../lambda/domain/schema/summary';
import { toVacancyItem } from '../../../../../lambda/domain/schema/vacancy-item';
import { LATE_WRITE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { SummaryLeaseLostError } from '../../../../../lambda/domain/store/errors';
import { recountSummary } from '../../../../../lambda/domain/store/recount';
import { LEASE_MS } from '../../../../../lambda/domain/store/summary-leases';
import { VacancyWriters } from '../../../../../lambda/domain/store/writers';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { exactCounts, storedSummary, summaryCounts } from '../../../../../testkit/summaries';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

describe('leases on a summary', () => {
  let tables: TestTables;
  let now = Date.UTC(2026, 10, 23, 9, 0, 0);
  const clock = () => now;
  const writers = () =>
    new VacancyWriters({ client: tables.documentClient, tables: tables.names, now: clock });
  const put = (id: number, vendorId: string) => () => ({
    put: toVacancyItem(fixtureVacancy(vacancyRecord({ id, vendor_id: vendorId })), now),
  });
  const summary = (vendorId: string) => storedSummary(tables.documentClient, tables.names, vendorId);
  const recount = (vendorId: string, sleep: () => Promise<void> = async () => undefined) =>
    recountSummary(vendorId, { client: tables.documentClient, tables: tables.names, now: clock, sleep });

  beforeAll(async () => {
    tables = await createTestTables();
    for (const vendorId of ['acme', 'globex', 'initech']) {
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
    }
  });
  afterAll(async () => tables.drop());

  it('is taken before the first write and let go after the last delta: distrusted in between', async () => {
    const writer = writers();
    await writer.write(1, put(1, 'acme'));
    const during = await summary('acme');
    expect(during?.leases.size).toBe(1);
    expect(isCurrent(during as never, now + 60_000, '2026-11-23', 5_000)).toBe(false);
    await writer.close();
    const after = await summary('acme');
    expect(after?.leases.size).toBe(0);
    expect(after?.version).toBeGreaterThan(during?.version ?? 0);
    expect(isCurrent(after as never, now + 5_000, '2026-11-23', 5_000)).toBe(true);
    expect(isCurrent(after as never, now + 4_999, '2026-11-23', 5_000)).toBe(false);
  });

  it('makes a recount wait while a writer is at work', async () => {
    const writer = writers();
    await writer.write(2, put(2, 'acme'));
    expect(await recount('acme')).toBe('busy');
    await writer.close();
    expect(JSON.stringify(summaryCounts(await summary('acme')))).toBe(
      JSON.stringify(await exactCounts(tables.documentClient, tables.names, 'acme')),
    );
  });

  it('stops a writer whose lease ran out and was taken over: it writes nothing more, and the summary says broken', async () => {
    const writer = writers();
    await writer.write(10, put(10, 'globex'));
    // The writer stalls past its lease; a recount takes over and counts.
    now += LEASE_MS + LATE_WRITE_MS + 1_000;
    expect(await recount('globex')).toBe('recounted');
    await expect(writer.write(11, put(11, 'globex'))).rejects.toBeInstanceOf(SummaryLeaseLostError);
    await writer.close();
    const broken = await summary('globex');
    expect(broken?.broken).toBe(true);
    expect(isCurrent(broken as never, now + 60_000, '2026-11-23', 5_000)).toBe(false);
    // What it wrote before it stalled is in the table, and only that.
    expect(await exactCounts(tables.documentClient, tables.names, 'globex')).toEqual([
      [countAttribute(1, 3, 6), 1],
      [dayAttribute(dayNumber('2099-12-31')), 1],
    ]);
    // The repair path: a recount makes it exact and trusted again.
    expect(await recount('globex')).toBe('recounted');
    const repaired = await summary('globex');
    expect(repaired?.broken).toBe(false);
    expect(summaryCounts(repaired)).toEqual(await exactCounts(tables.documentClient, tables.names, 'globex'));
  });

  it('gives way, while it counts, to a writer that starts: the summary stays untrusted', async () => {
    const first = writers();
    await first.write(21, put(21, 'initech'));
    await first.close();
    let started: Promise<unknown> | undefined;
    const writer = writers();
    const outcome = await recount('initech', async () => {
      // During the recount's settle window, a writer takes its own lease and writes.
      started = writer.write(20, put(20, 'initech'));
      await started;
    });
    expect(outcome).toBe('busy');
    await writer.close();
    const after = await summary('initech');
    expect(after?.broken).toBe(true);
    expect(await recount('initech')).toBe('recounted');
    expect(summaryCounts(await summary('initech'))).toEqual(
      await exactCounts(tables.documentClient, tables.names, 'initech'),
    );
  });
});
