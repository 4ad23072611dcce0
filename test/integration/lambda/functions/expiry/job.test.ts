/**
 * The expiry job (docs/design.md#expiry), against the engine through a fault-injecting proxy that records every
 * operation: what it expires across a day boundary of the service zone (one without daylight saving, and one whose
 * midnight a daylight-saving jump skips), that a second run changes nothing, that a run stopped by a failure is
 * finished by the next, and that it never Scans.
 */

import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseImportFile } from '../../../../../lambda/domain/import/file';
import { importVacancies } from '../../../../../lambda/domain/import/import';
import { dayNumber } from '../../../../../lambda/domain/schema/active-index';
import { isCurrent } from '../../../../../lambda/domain/schema/summary';
import { EXPIRY_INDEX, EXPIRY_SHARDS, ITEM } from '../../../../../lambda/domain/schema/tables';
import { INDEX_SETTLE_MS, LATE_WRITE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { LEASE_MS } from '../../../../../lambda/domain/store/summary-leases';
import { runExpiry } from '../../../../../lambda/functions/expiry/job';
import { type ZoneClock, zoneClock } from '../../../../../lambda/platform/time/zone-clock';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { type FaultProxy, startFaultProxy } from '../../../../../testkit/fault-proxy';
import { exactCounts, storedSummary, summaryCounts } from '../../../../../testkit/summaries';
import { vacancyRecord } from '../../../../../testkit/vacancies';

/** Tables of their own, reached through a proxy; the client does not retry (a fault is a failure). */
async function proxiedTables(): Promise<{ tables: TestTables; proxy: FaultProxy }> {
  const proxy = await startFaultProxy(process.env.DYNAMODB_ENDPOINT as string);
  const tables = await createTestTables({ connect: proxy.endpoint, maxAttempts: 1 });
  return { tables, proxy };
}

const NO_WAIT = { sleep: async () => undefined, settleMs: 0 };

describe('the expiry job', () => {
  // Each group of tests has tables of its own: a run expires what is due in the whole table.
  let tables: TestTables;
  let proxy: FaultProxy;
  const ownTables = () => {
    beforeAll(async () => {
      ({ tables, proxy } = await proxiedTables());
      for (const vendorId of ['acme', 'globex', 'initech', 'santiago']) {
        await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
      }
    });
    afterAll(async () => {
      // Whatever a group did, it never asked for a Scan.
      expect(proxy.operations).not.toContain('Scan');
      await tables.drop();
      await proxy.stop();
    });
  };

  const item = async (id: number) =>
    (
      await tables.documentClient.send(
        new GetCommand({ TableName: tables.names.vacancies, Key: { id }, ConsistentRead: true }),
      )
    ).Item;
  /** Imports records as of `at`, in `clock`'s zone. */
  const importAt = (at: Date, clock: ZoneClock, records: Record<string, unknown>[]) =>
    importVacancies(
      tables.documentClient,
      tables.names,
      parseImportFile(records.map((record) => JSON.stringify(record)).join('\n')),
      { clock, now: () => at.getTime() },
    );
  const expireAt = (at: Date, clock: ZoneClock) =>
    runExpiry({
      client: tables.documentClient,
      tables: tables.names,
      clock,
      now: () => at,
      recount: NO_WAIT,
    });
  /**
   * Whether a vendor's summary holds exactly what the active index holds, with no writer at work and nothing
   * broken: what a writer that let go leaves. (Whether a reader may trust it also depends on the day: `isCurrent`.)
   */
  const summaryIsExact = async (vendorId: string) => {
    const summary = await storedSummary(tables.documentClient, tables.names, vendorId);
    return (
      summary !== undefined &&
      summary.leases.size === 0 &&
      !summary.broken &&
      JSON.stringify(summaryCounts(summary)) ===
        JSON.stringify(await exactCounts(tables.documentClient, tables.names, vendorId))
    );
  };
  /** Whether a reader at `at` may trust a vendor's summary (once the settle window has passed). */
  const trustedAt = async (vendorId: string, at: Date, clock: ZoneClock) => {
    const summary = await storedSummary(tables.documentClient, tables.names, vendorId);
    const later = at.getTime() + INDEX_SETTLE_MS;
    return summary !== undefined && isCurrent(summary, later, clock.today(at), INDEX_SETTLE_MS);
  };

  describe('in Asia/Baku (UTC+4, no daylight saving)', () => {
    ownTables();
    const baku = zoneClock('Asia/Baku');
    const deadlines = ['2026-03-06', '2026-03-07', '2026-03-08'];

    beforeAll(async () => {
      const report = await importAt(
        new Date('2026-03-01T08:00:00Z'),
        baku,
        deadlines.map((deadline, i) => vacancyRecord({ id: 101 + i, deadline })),
      );
      expect(report.imported).toBe(3);
    });

    it('expires, at the last second of a day, only the vacancies whose deadline was before it', async () => {
      const lastSecond = baku.fromLocal('2026-03-07 23:59:59');
      const report = await expireAt(lastSecond, baku);
      expect(report).toMatchObject({ today: '2026-03-07', expired: 1, vendors: ['acme'], finished: true });
      expect(await item(101)).toMatchObject({ status: 'expired', [ITEM.updatedAt]: lastSecond.getTime() });
      expect(await item(102)).toMatchObject({ status: 'active' });
      expect(await summaryIsExact('acme')).toBe(true);
      expect(await trustedAt('acme', lastSecond, baku)).toBe(true);
      // The count of the day that has no vacancy left is gone from the summary, not kept as a zero.
      const summary = await storedSummary(tables.documentClient, tables.names, 'acme');
      expect([...(summary?.days.keys() ?? [])].sort()).toEqual([
        dayNumber('2026-03-07'),
        dayNumber('2026-03-08'),
      ]);
    });

    it('expires the next one at the first second of the next day, and takes it out of both indexes', async () => {
      const firstSecond = baku.fromLocal('2026-03-08 00:00:00');
      expect(firstSecond.toISOString()).toBe('2026-03-07T20:00:00.000Z');
      // The day has begun and the job has not run: the summary still counts a vacancy due yesterday, and says so.
      expect(await trustedAt('acme', firstSecond, baku)).toBe(false);
      expect(await expireAt(firstSecond, baku)).toMatchObject({ today: '2026-03-08', expired: 1 });
      const expired = await item(102);
      expect(expired).toMatchObject({ status: 'expired', [ITEM.updatedAt]: firstSecond.getTime() });
      for (const attribute of [ITEM.order, ITEM.deadline, ITEM.expiryShard]) {
        expect(expired).not.toHaveProperty(attribute);
      }
      expect(await item(103)).toMatchObject({ status: 'active' });
      expect(await summaryIsExact('acme')).toBe(true);
      expect(await trustedAt('acme', firstSecond, baku)).toBe(true);
    });

    it('is idempotent: run again, it changes nothing and stamps nothing', async () => {
      const later = baku.fromLocal('2026-03-08 00:15:00');
      const before = await item(102);
      expect(await expireAt(later, baku)).toMatchObject({ expired: 0, vendors: [], finished: true });
      expect(await item(102)).toEqual(before);
    });
  });

  describe('in America/Santiago, whose midnight a daylight-saving jump skips', () => {
    ownTables();
    const santiago = zoneClock('America/Santiago');

    it('expires a deadline when the next day begins: at 01:00, the first moment of 2026-09-06', async () => {
      // On 2026-09-06 Chile's clocks go from 23:59:59 (UTC−4) straight to 01:00 (UTC−3).
      const before = new Date('2026-09-06T03:59:59Z');
      const after = new Date('2026-09-06T04:00:00Z');
      expect([santiago.format(before), santiago.format(after)]).toEqual([
        '2026-09-05 23:59:59',
        '2026-09-06 01:00:00',
      ]);
      expect(santiago.nextDayStart(before)).toEqual(after);
      await importAt(new Date('2026-09-01T12:00:00Z'), santiago, [
        vacancyRecord({ id: 201, vendor_id: 'santiago', deadline: '2026-09-05' }),
        vacancyRecord({ id: 202, vendor_id: 'santiago', deadline: '2026-09-06' }),
      ]);
      expect(await expireAt(before, santiago)).toMatchObject({ today: '2026-09-05', expired: 0 });
      expect(await expireAt(after, santiago)).toMatchObject({ today: '2026-09-06', expired: 1 });
      expect(await item(201)).toMatchObject({ status: 'expired', [ITEM.updatedAt]: after.getTime() });
      expect(await item(202)).toMatchObject({ status: 'active' });
      expect(await summaryIsExact('santiago')).toBe(true);
      expect(await trustedAt('santiago', after, santiago)).toBe(true);
    });
  });

  describe('after a failure', () => {
    ownTables();
    const baku = zoneClock('Asia/Baku');
    const imported = new Date('2026-05-01T08:00:00Z');
    const due = baku.fromLocal('2026-05-21 00:05:00');
    // Deadlines of 2026-05-10 to 2026-05-19: all past on 2026-05-21, spread over every shard of the index.
    const records = (vendorId: string, first: number) =>
      Array.from({ length: 40 }, (_, i) =>
        vacancyRecord({
          id: first + i,
          vendor_id: vendorId,
          deadline: `2026-05-1${i % 10}`,
          type: 1 + (i % 4),
        }),
      );
    const statuses = async (first: number) =>
      Promise.all(Array.from({ length: 40 }, async (_, i) => (await item(first + i))?.status));

    it('is resumable: a run stopped by DynamoDB failing counts what it wrote, and the next one finishes', async () => {
      await importAt(imported, baku, records('globex', 1_000));
      proxy.inject({ operation: 'PutItem', kind: 'fail', after: 15 });
      await expect(expireAt(due, baku)).rejects.toMatchObject({ name: 'InternalServerError' });
      await proxy.clear();
      const afterFailure = await statuses(1_000);
      const expiredSoFar = afterFailure.filter((status) => status === 'expired').length;
      expect(expiredSoFar).toBeGreaterThanOrEqual(15);
      expect(expiredSoFar).toBeLessThan(40);
      // It let go of its lease, having counted what it knows it wrote; the write that failed may have been applied
      // all the same (DynamoDB's 500: "may or may not have succeeded"), so the summary is marked broken — not
      // trusted until the next run recounts it.
      const afterRun = await storedSummary(tables.documentClient, tables.names, 'globex');
      expect(afterRun?.leases.size).toBe(1);
      expect(await trustedAt('globex', due, baku)).toBe(false);

      const resumed = await expireAt(new Date(due.getTime() + 60_000), baku);
      expect(resumed).toMatchObject({ expired: 40 - expiredSoFar, finished: true });
      expect(new Set(await statuses(1_000))).toEqual(new Set(['expired']));
      // Once the failed run's lease has run out and a late write of it would have landed, a run recounts it.
      const later = new Date(due.getTime() + LEASE_MS + LATE_WRITE_MS + 1_000);
      expect(await expireAt(later, baku)).toMatchObject({ recounted: expect.arrayContaining(['globex']) });
      expect(await summaryIsExact('globex')).toBe(true);
      expect(await trustedAt('globex', later, baku)).toBe(true);
    });

    it('recovers from a run killed holding its lease: the summary is untrusted, then recounted', async () => {
      await importAt(imported, baku, records('initech', 2_000));
      // Its writes fail, and so does every update of the summary after it took its lease: as if killed.
      proxy.inject(
        { operation: 'PutItem', kind: 'fail', after: 10 },
        { operation: 'UpdateItem', kind: 'fail', after: 1 },
      );
      await expect(expireAt(due, baku)).rejects.toBeDefined();
      await proxy.clear();
      const stuck = await storedSummary(tables.documentClient, tables.names, 'initech');
      expect(stuck?.leases.size).toBe(1);
      expect(isCurrent(stuck as never, due.getTime() + INDEX_SETTLE_MS, '2026-05-21', INDEX_SETTLE_MS)).toBe(
        false,
      );

      // While the lease runs, the next run expires the rest but leaves the summary to a later run…
      const soon = new Date(due.getTime() + 10_000);
      const next = await expireAt(soon, baku);
      expect(next).toMatchObject({ finished: true });
      expect(next.recounted).not.toContain('initech');
      expect(await summaryIsExact('initech')).toBe(false);
      expect(await trustedAt('initech', soon, baku)).toBe(false);
      // …which, once the lease has run out, counts it anew.
      const later = new Date(due.getTime() + LEASE_MS + LATE_WRITE_MS + 1_000);
      expect(await expireAt(later, baku)).toMatchObject({ expired: 0, recounted: ['initech'] });
      expect(await summaryIsExact('initech')).toBe(true);
      expect(await trustedAt('initech', later, baku)).toBe(true);
      expect(new Set(await statuses(2_000))).toEqual(new Set(['expired']));
    });

    it('finds what expired by key, never by a Scan: a Query per shard of the expiry index', async () => {
      expect(proxy.operations).not.toContain('Scan');
      expect(proxy.operations).toContain('Query');
      // And the index holds only what is active: nothing past its deadline is left in it.
      const { Items = [] } = await tables.documentClient.send(
        new QueryCommand({
          TableName: tables.names.vacancies,
          IndexName: EXPIRY_INDEX.name,
          KeyConditionExpression: '#e = :shard AND #d < :day',
          ExpressionAttributeNames: { '#e': EXPIRY_INDEX.partitionKey, '#d': EXPIRY_INDEX.sortKey },
          ExpressionAttributeValues: { ':shard': 1_000 % EXPIRY_SHARDS, ':day': dayNumber('2026-05-21') },
        }),
      );
      expect(Items).toEqual([]);
    });
  });
});
