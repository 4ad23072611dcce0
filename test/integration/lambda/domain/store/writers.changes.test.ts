/**
 * When a vacancy changed (docs/design.md#when-a-vacancy-changed): every write that changes what a client sees
 * stamps `updated_at` and moves the change index entry, and nothing else does; a deletion leaves a tombstone that
 * keeps the id its vendor's until a purge, which records the vendor's purge horizon.
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseImportFile } from '../../../../../lambda/domain/import/file';
import { importVacancies } from '../../../../../lambda/domain/import/import';
import { readChangeKey } from '../../../../../lambda/domain/schema/change-index';
import { parseSummary, summaryItemKey } from '../../../../../lambda/domain/schema/summary';
import { CHANGE_INDEX, ITEM } from '../../../../../lambda/domain/schema/tables';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import { deleteVacancy, purgeTombstones, setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables, vendorEntries } from '../../../../../testkit/dynamodb';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

/** A clock the test moves: every write is stamped with it. */
function testClock(start: number) {
  let time = start;
  return {
    now: () => time,
    advance(ms = 1_000) {
      time += ms;
      return time;
    },
  };
}

describe('when a vacancy changed', () => {
  let tables: TestTables;
  const clock = testClock(Date.UTC(2026, 10, 20, 8, 0, 0));
  const stored = async (id: number) =>
    (
      await tables.documentClient.send(
        new GetCommand({ TableName: tables.names.vacancies, Key: { id }, ConsistentRead: true }),
      )
    ).Item;
  const updatedAt = async (id: number) => (await stored(id))?.[ITEM.updatedAt] as number | undefined;
  const importRecords = (...records: Record<string, unknown>[]) =>
    importVacancies(
      tables.documentClient,
      tables.names,
      parseImportFile(records.map((record) => JSON.stringify(record)).join('\n')),
      { clock: CLOCK, now: clock.now },
    );
  /** The vendor's change index: [id, status, when], oldest change first. */
  const changes = async (vendorId: string) => {
    return (await vendorEntries(tables, CHANGE_INDEX, vendorId)).map((entry) => {
      const key = readChangeKey(entry[ITEM.change] as Uint8Array);
      expect(key.id).toBe(entry.id);
      return [entry.id, entry.status, key.updatedAt];
    });
  };

  beforeAll(async () => {
    tables = await createTestTables();
    for (const vendorId of ['acme', 'globex']) {
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
    }
  });
  afterAll(async () => tables.drop());

  it('stamps a new vacancy when it is imported, and not again when it is imported unchanged', async () => {
    const created = clock.advance();
    expect(await importRecords(vacancyRecord({ id: 1 }), vacancyRecord({ id: 2 }))).toMatchObject({
      imported: 2,
    });
    expect(await updatedAt(1)).toBe(created);
    clock.advance();
    expect(await importRecords(vacancyRecord({ id: 1 }), vacancyRecord({ id: 2 }))).toMatchObject({
      imported: 0,
      unchanged: 2,
    });
    expect(await updatedAt(1)).toBe(created);
    expect(await changes('acme')).toEqual([
      [1, 'active', created],
      [2, 'active', created],
    ]);
  });

  it('stamps a vacancy again when any field a client sees changes, and moves its change entry to the end', async () => {
    const before = await updatedAt(1);
    const changed = clock.advance();
    expect(await importRecords(vacancyRecord({ id: 1, title: 'Senior backend developer' }))).toMatchObject({
      imported: 1,
    });
    expect(await updatedAt(1)).toBe(changed);
    expect(changed).toBeGreaterThan(before as number);
    expect((await changes('acme')).map(([id]) => id)).toEqual([2, 1]);
  });

  it('stamps a status change, and not a status set to what it already is', async () => {
    const closed = clock.advance();
    await setVacancyStatus(tables.documentClient, tables.names, 2, 'closed', { now: clock.now });
    expect(await stored(2)).toMatchObject({ status: 'closed', [ITEM.updatedAt]: closed });
    clock.advance();
    expect(
      await setVacancyStatus(tables.documentClient, tables.names, 2, 'closed', { now: clock.now }),
    ).toMatchObject({ unchanged: { status: 'closed' } });
    expect(await updatedAt(2)).toBe(closed);
  });

  it('never stamps earlier than the last change, whatever the clock says', async () => {
    const last = (await updatedAt(2)) as number;
    const behind = () => last - 60_000;
    await setVacancyStatus(tables.documentClient, tables.names, 2, 'inactive', { now: behind });
    expect(await updatedAt(2)).toBe(last + 1);
  });

  it('leaves a tombstone on deletion: id, vendor, status and when, in the change index as deleted', async () => {
    const deleted = clock.advance();
    await deleteVacancy(tables.documentClient, tables.names, 2, { now: clock.now });
    expect(await stored(2)).toEqual({
      id: 2,
      [ITEM.vendor]: 'acme',
      status: 'deleted',
      [ITEM.updatedAt]: deleted,
      [ITEM.change]: expect.any(Uint8Array),
      [ITEM.write]: expect.any(String),
    });
    expect((await changes('acme')).at(-1)).toEqual([2, 'deleted', deleted]);
    expect(await deleteVacancy(tables.documentClient, tables.names, 2, { now: clock.now })).toEqual({
      notFound: true,
    });
    expect(
      await setVacancyStatus(tables.documentClient, tables.names, 2, 'active', { now: clock.now }),
    ).toEqual({ notFound: true });
  });

  it("keeps a deleted vacancy's id its vendor's, and brings it back when its vendor imports it again", async () => {
    clock.advance();
    const refused = await importRecords(vacancyRecord({ id: 2, vendor_id: 'globex' }));
    expect(refused.rejected).toEqual([{ line: 1, reasons: ['id 2 belongs to vendor acme'] }]);
    expect(await stored(2)).toMatchObject({ status: 'deleted' });

    const revived = clock.advance();
    expect(await importRecords(vacancyRecord({ id: 2 }))).toMatchObject({ imported: 1 });
    expect(await stored(2)).toMatchObject({
      status: 'active',
      title: 'Backend developer',
      [ITEM.updatedAt]: revived,
    });
  });

  it('refuses updated_at in an import record: the service records it', async () => {
    const report = await importRecords(vacancyRecord({ id: 3, updated_at: '2026-01-01T00:00:00Z' }));
    expect(report.rejected).toEqual([
      { line: 1, reasons: ['updated_at is recorded by the service when a vacancy changes: leave it out'] },
    ]);
    expect(await stored(3)).toBeUndefined();
  });

  it('purges tombstones older than a date, only those, and records the horizon — never moving it back', async () => {
    clock.advance();
    await importRecords(vacancyRecord({ id: 4 }), vacancyRecord({ id: 5 }));
    const early = clock.advance();
    await deleteVacancy(tables.documentClient, tables.names, 4, { now: clock.now });
    const horizon = clock.advance();
    await deleteVacancy(tables.documentClient, tables.names, 5, { now: clock.now });
    expect(await stored(4)).toMatchObject({ status: 'deleted', [ITEM.updatedAt]: early });
    // The purge runs later than the horizon it is given by more than the settle window.
    clock.advance(10_000);

    const report = await purgeTombstones(tables.documentClient, tables.names, 'acme', horizon, {
      now: clock.now,
    });
    expect(report).toEqual({ vendorId: 'acme', removed: 1, purgedBefore: horizon });
    expect(await stored(4)).toBeUndefined();
    expect(await stored(5)).toMatchObject({ status: 'deleted' });
    // Active and closed vacancies are never purged, however old.
    expect(await stored(1)).toMatchObject({ status: 'active' });

    const summary = async () =>
      parseSummary(
        (
          await tables.documentClient.send(
            new GetCommand({
              TableName: tables.names.vendors,
              Key: summaryItemKey('acme'),
              ConsistentRead: true,
            }),
          )
        ).Item ?? {},
      );
    expect((await summary()).purgedBefore).toBe(horizon);
    const versionBefore = (await summary()).version;
    expect(
      await purgeTombstones(tables.documentClient, tables.names, 'acme', early, { now: clock.now }),
    ).toEqual({ vendorId: 'acme', removed: 0, purgedBefore: horizon });
    expect((await summary()).purgedBefore).toBe(horizon);
    expect((await summary()).version).toBeGreaterThan(versionBefore);
    // Another vendor's horizon is its own.
    expect(
      (
        await tables.documentClient.send(
          new GetCommand({
            TableName: tables.names.vendors,
            Key: summaryItemKey('globex'),
            ConsistentRead: true,
          }),
        )
      ).Item?.purgedBefore,
    ).toBeUndefined();
  });

  it('records a horizon no later than the settle window before now, so a fresh full sync is never outdated', async () => {
    const now = clock.advance();
    const report = await purgeTombstones(tables.documentClient, tables.names, 'acme', now + 60_000, {
      now: clock.now,
    });
    expect(report.purgedBefore).toBe(now - INDEX_SETTLE_MS);
  });

  it('frees a purged id: any vendor may then import it', async () => {
    clock.advance();
    expect(await importRecords(vacancyRecord({ id: 4, vendor_id: 'globex' }))).toMatchObject({ imported: 1 });
    expect(await stored(4)).toMatchObject({ [ITEM.vendor]: 'globex', status: 'active' });
  });

  it('stamps a vacancy whose additional cities change — added, reordered, dropped — and not one imported as it is', async () => {
    const record = (additional?: string[]) =>
      vacancyRecord({ id: 70, city: 'baku', ...(additional && { additional_cities: additional }) });
    const created = clock.advance();
    await importRecords(record());
    for (const additional of [['ganja', 'quba'], ['quba', 'ganja'], ['quba'], undefined]) {
      const changed = clock.advance();
      expect(await importRecords(record(additional))).toMatchObject({ imported: 1 });
      expect(await updatedAt(70)).toBe(changed);
      clock.advance();
      expect(await importRecords(record(additional))).toMatchObject({ imported: 0, unchanged: 1 });
      expect(await updatedAt(70)).toBe(changed);
    }
    // Back to none: the item is what it was before additional cities existed.
    expect((await stored(70))?.city).toBe('baku');
    expect(created).toBeLessThan((await updatedAt(70)) as number);
    // A status change keeps them.
    await importRecords(record(['shaki']));
    await setVacancyStatus(tables.documentClient, tables.names, 70, 'inactive', { now: clock.now });
    expect(await stored(70)).toMatchObject({ status: 'inactive', city: 'baku,shaki' });
  });
});
