/**
 * The reference sync client (examples/sync/sync.ts) against `npm start` in a process of its own, while the ops CLI
 * imports, closes, deletes, expires and purges: after each sync its SQLite copy holds exactly what a full listing
 * returns — every change delivered, deletions and expiries included — and a purge that outdates its saved URL makes
 * it start over by itself.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openCopy, type SyncReport, syncOnce } from '../../../examples/sync/sync';
import { toVacancyItem } from '../../../lambda/domain/schema/vacancy-item';
import { VacancyWriters } from '../../../lambda/domain/store/writers';
import { createDynamoDBClient } from '../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../lambda/platform/dynamodb/document-client';
import { localTableNames } from '../../../lib/create-tables';
import { cliTarget, admin as runAdmin } from '../../../testkit/admin-cli';
import { testEndpoint } from '../../../testkit/dynamodb';
import { type LocalApiProcess, startLocalApiProcess } from '../../../testkit/local-api-process';
import { copyAsListed, listedOverHttp } from '../../../testkit/sync-copy';
import { CLOCK, fixtureVacancy, vacancyRecord } from '../../../testkit/vacancies';

const KEY = 'vvk_demo_pasha_bank_primary';
const VENDOR = 'pasha-bank';

describe('the reference sync client (examples/sync)', () => {
  const prefix = `s${randomUUID().slice(0, 8)}-`;
  const tables = localTableNames(prefix);
  const folder = mkdtempSync(join(tmpdir(), 'sync-client-'));
  const db = openCopy(join(folder, 'copy.db'));
  let api: LocalApiProcess;

  /** The ops CLI on the local server's tables, as an operator runs it. */
  const admin = (...args: string[]) => runAdmin([...cliTarget(testEndpoint(), tables), ...args]);
  const importRecords = (records: Record<string, unknown>[]) => {
    const file = join(folder, `${randomUUID()}.ndjson`);
    writeFileSync(file, records.map((record) => JSON.stringify(record)).join('\n'));
    return admin('vacancies', 'import', file);
  };

  const listed = () => listedOverHttp(api.url, KEY);
  const copy = () => copyAsListed(db);

  /** Syncs until the copy equals the listing: a change is in a sync once the 5-second settle window has passed. */
  async function syncUntilEqual() {
    const reports = [];
    const expected = await listed();
    for (let tries = 0; tries < 12; tries += 1) {
      reports.push(await syncOnce({ baseUrl: api.url, apiKey: KEY, db, lang: 'en' }));
      if (JSON.stringify(copy()) === JSON.stringify(expected)) return reports;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(copy()).toEqual(expected);
    return reports;
  }

  beforeAll(async () => {
    api = await startLocalApiProcess({ port: 0, dynamodbEndpoint: testEndpoint(), tablePrefix: prefix });
  });
  afterAll(async () => {
    await api?.stop();
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('copies everything with a full sync first', async () => {
    const [first] = await syncUntilEqual();
    expect(first).toMatchObject({ full: true });
    expect(copy().length).toBeGreaterThan(10);
  });

  it('takes in imported vacancies, then closed and deleted ones out', async () => {
    await importRecords([
      vacancyRecord({ id: 77_001, vendor_id: VENDOR, title: 'Synced one' }),
      vacancyRecord({ id: 77_002, vendor_id: VENDOR, title: 'Synced two' }),
    ]);
    const added = await syncUntilEqual();
    expect(added.some((report) => !report.full && report.upserted >= 2)).toBe(true);
    expect(copy().map((vacancy) => vacancy.id)).toEqual(expect.arrayContaining([77_001, 77_002]));

    await admin('vacancies', 'set-status', '77001', 'closed');
    await admin('vacancies', 'delete', '77002');
    const removed = await syncUntilEqual();
    expect(removed.reduce((sum, report) => sum + report.removed, 0)).toBeGreaterThanOrEqual(2);
    expect(copy().map((vacancy) => vacancy.id)).not.toEqual(expect.arrayContaining([77_001]));
  });

  it('takes out a vacancy whose deadline passed, before and after the expiry job records it', async () => {
    await importRecords([vacancyRecord({ id: 77_003, vendor_id: VENDOR, title: 'Soon gone' })]);
    await syncUntilEqual();
    expect(copy().map((vacancy) => vacancy.id)).toContain(77_003);
    // Its deadline passes overnight: written as the service writes (the clock cannot be moved), still `active`.
    const yesterday = new Date(`${CLOCK.today(new Date())}T00:00:00Z`);
    yesterday.setUTCDate(yesterday.getUTCDate() - 1);
    const client = createDocumentClient(createDynamoDBClient({ endpoint: testEndpoint() }));
    const writers = new VacancyWriters({ client, tables });
    const overdue = fixtureVacancy(
      vacancyRecord({
        id: 77_003,
        vendor_id: VENDOR,
        title: 'Soon gone',
        deadline: yesterday.toISOString().slice(0, 10),
      }),
    );
    await writers.write(77_003, (_current, updatedAt) => ({ put: toVacancyItem(overdue, updatedAt) }));
    await writers.close();
    client.destroy();
    await syncUntilEqual();
    expect(copy().map((vacancy) => vacancy.id)).not.toContain(77_003);
    // The job records the expiry with a new time: the next sync says so again, and the copy stays right.
    expect(await admin('vacancies', 'expire')).toMatch(/expired 1 vacancies/);
    await syncUntilEqual();
  });

  it('starts over by itself when a purge has made its saved URL too old (410)', async () => {
    // Purged up to now (recorded as the settle window before now), a while after the copy's last sync.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await admin('vacancies', 'purge', '--before', new Date().toISOString(), '--vendor', VENDOR);
    const reports = await syncUntilEqual();
    expect(reports[0]).toMatchObject({ full: true });
    // The full sync's next_sync_url is not older than the purge: no second 410.
    const next = await syncOnce({ baseUrl: api.url, apiKey: KEY, db, lang: 'en' });
    expect(next.full).toBe(false);
  });

  it('keeps pay and place in its copy when asked to include them, on every page and every later sync', async () => {
    const withPay = openCopy(join(folder, 'with-pay.db'));
    try {
      const sync = () => syncOnce({ baseUrl: api.url, apiKey: KEY, db: withPay, include: 'pay,workplace' });
      await sync();
      const extra = (vacancy: Record<string, unknown>) => Object.keys(vacancy).slice(-3);
      const rows = () =>
        (withPay.prepare('SELECT vacancy FROM vacancies ORDER BY id').all() as { vacancy: string }[]).map(
          (row) => JSON.parse(row.vacancy) as Record<string, unknown>,
        );
      expect(rows().length).toBeGreaterThan(10);
      for (const vacancy of rows())
        expect(extra(vacancy)).toEqual(['salary_currency', 'salary_period', 'workplace']);
      expect(rows().find((vacancy) => vacancy.id === 1024)).toMatchObject({
        salary_currency: 'USD',
        workplace: 'hybrid',
      });
      // A change after the first sync comes with them too.
      await importRecords([
        vacancyRecord({ id: 77_009, vendor_id: VENDOR, title: 'Hybrid one', workplace: 'hybrid' }),
      ]);
      for (let tries = 0; tries < 12 && !rows().some((vacancy) => vacancy.id === 77_009); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await sync();
      }
      expect(rows().find((vacancy) => vacancy.id === 77_009)).toMatchObject({ workplace: 'hybrid' });
    } finally {
      withPay.close();
    }
  });

  it('asks with If-None-Match when it fetches a page it already has, and a 304 changes nothing', async () => {
    // Once the last changes are older than the settle window, nothing is left to sync; polled within a second,
    // the next sync's URL is the one just fetched (its snapshot is on a whole second).
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await syncOnce({ baseUrl: api.url, apiKey: KEY, db, lang: 'en' });
    const before = copy();
    const reports: SyncReport[] = [];
    // Ten syncs at least, and on until one is a 304: two syncs in one second, which a loaded machine may take longer
    // to make (at most 200).
    for (let i = 0; i < 200 && (i < 10 || !reports.some((report) => report.unchanged > 0)); i += 1) {
      reports.push(await syncOnce({ baseUrl: api.url, apiKey: KEY, db, lang: 'en' }));
    }
    expect(copy()).toEqual(before);
    expect(copy()).toEqual(await listed());
    expect(reports.every((report) => !report.full && report.upserted === 0 && report.removed === 0)).toBe(
      true,
    );
    expect(reports.some((report) => report.unchanged > 0)).toBe(true);
  });
});
