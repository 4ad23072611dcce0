/**
 * Snapshots (docs/operating.md#snapshots): a vendor's complete set. What it lacks is closed, and a sync sees it; a
 * record of another vendor is rejected; the closing limit holds a snapshot that would close too much, and `--max-close`
 * applies it; one stopped dead in the middle (kill -9) and run again ends as an uninterrupted one.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseImportFile } from '../../../../../lambda/domain/import/file';
import { importSnapshot } from '../../../../../lambda/domain/import/snapshot';
import { changeKey } from '../../../../../lambda/domain/schema/change-index';
import { CHANGE_INDEX, type TableNames } from '../../../../../lambda/domain/schema/tables';
import { INDEX_SETTLE_MS } from '../../../../../lambda/domain/settings/recovery-waits';
import type { SyncResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../../lambda/platform/dynamodb/document-client';
import { putVendor } from '../../../../../lib/ops/vendors';
import { cliTarget, runAdmin } from '../../../../../testkit/admin-cli';
import { createTestTables, type TestTables, vendorEntries } from '../../../../../testkit/dynamodb';
import { entryArguments } from '../../../../../testkit/entry-bundles';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { exactCounts, storedSummary, summaryCounts } from '../../../../../testkit/summaries';
import { syncedCopy } from '../../../../../testkit/sync-copy';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

const ndjson = (records: readonly Record<string, unknown>[]) =>
  records.map((record) => JSON.stringify(record)).join('\n');
const record = (vendorId: string, id: number, overrides: Record<string, unknown> = {}) =>
  vacancyRecord({ id, vendor_id: vendorId, url: `https://careers.example.com/jobs/${id}`, ...overrides });

let tables: TestTables;
let folder: string;

const admin = (...args: string[]) => runAdmin([...cliTarget(tables.endpoint, tables.names), ...args]);
/** Writes a file of records and gives its path. */
async function file(name: string, records: readonly Record<string, unknown>[]): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, ndjson(records));
  return path;
}

/** A vendor's vacancies, read strongly by id off its change index: id → status. */
async function statuses(vendorId: string, names: TableNames = tables.names): Promise<Map<number, string>> {
  const entries = await vendorEntries(
    { documentClient: tables.documentClient, names },
    CHANGE_INDEX,
    vendorId,
  );
  const result = new Map<number, string>();
  for (const { id } of entries) {
    const { Item } = await tables.documentClient.send(
      new GetCommand({ TableName: names.vacancies, Key: { id }, ConsistentRead: true }),
    );
    if (Item) result.set(Item.id as number, Item.status as string);
  }
  return new Map([...result].sort(([a], [b]) => a - b));
}

beforeAll(async () => {
  tables = await createTestTables();
  folder = await mkdtemp(join(tmpdir(), 'snapshots-'));
  for (const id of ['acme', 'globex', 'initech', 'umbrella'])
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: id, company: id });
});
afterAll(async () => {
  await tables.drop();
  await rm(folder, { recursive: true, force: true });
});

describe('vacancy-admin vacancies import --snapshot', () => {
  it('closes the vendor’s active, inactive and draft vacancies the file lacks, and a sync sees each closure', async () => {
    const start = [
      ...Array.from({ length: 12 }, (_, i) => record('acme', 1000 + i)),
      record('acme', 1020, { status: 'inactive' }),
      record('acme', 1021, { status: 'draft' }),
      record('acme', 1022, { status: 'closed' }),
      record('globex', 1030),
    ];
    expect((await admin('vacancies', 'import', await file('start.ndjson', start))).code).toBe(0);
    const copy = syncedCopy(tables, 'acme');
    await copy.sync();

    // The snapshot keeps 1000-1009 (one changed), drops 1010, 1011, 1020, 1021; 1022 is closed already.
    const snapshot = [
      ...Array.from({ length: 10 }, (_, i) => record('acme', 1000 + i)),
      record('acme', 1040),
    ];
    snapshot[0] = record('acme', 1000, { title: 'Changed title' });
    const run = await admin(
      'vacancies',
      'import',
      await file('snapshot.ndjson', snapshot),
      '--snapshot',
      '--vendor',
      'acme',
    );
    expect(run).toMatchObject({ code: 0, stdout: 'imported 2, rejected 0, unchanged 9, closed 4\n' });
    const closedBy = Date.now();
    const now = await statuses('acme');
    expect([1010, 1011, 1020, 1021, 1022].map((id) => now.get(id))).toEqual(Array(5).fill('closed'));
    expect(now.get(1040)).toBe('active');
    expect((await statuses('globex')).get(1030)).toBe('active');

    // A sync from before sees the closures (a closed vacancy leaves the copy) and equals the listing…
    expect(await copy.syncUntilEqual(20_000)).toBe(true);
    expect(copy.entries().map(([id]) => id)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => 1000 + i),
      1040,
    ]);
    // …and reads each as closed, once the closures are in a sync's window: settled (a stamp may lag a second). The
    // copy above, which never held them, is equal once 1040 is in its window; the import closes after it writes
    // 1040 — on a loaded machine seconds after — and a full sync read before the closures settled missed all four.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, closedBy + INDEX_SETTLE_MS + 1_000 - Date.now())),
    );
    const handler = testListingHandler(tables);
    const changes = await handler(
      listingEvent({
        query: 'updated_since=1970-01-01T00:00:00Z&per_page=100',
        authorizer: { vendorId: 'acme', company: 'Acme' },
      }),
      lambdaContext('listing'),
    );
    const seen = new Map(
      (JSON.parse(changes.body) as SyncResponse).data.map(({ id, status }) => [id, status]),
    );
    expect([1010, 1011, 1020, 1021].map((id) => seen.get(id))).toEqual(Array(4).fill('closed'));
    expect(summaryCounts(await storedSummary(tables.documentClient, tables.names, 'acme'))).toEqual(
      await exactCounts(tables.documentClient, tables.names, 'acme'),
    );

    // Run again: nothing left to write or close.
    const again = await admin(
      'vacancies',
      'import',
      join(folder, 'snapshot.ndjson'),
      '--snapshot',
      '--vendor',
      'acme',
    );
    expect(again).toMatchObject({ code: 0, stdout: 'imported 0, rejected 0, unchanged 11, closed 0\n' });
  });

  it("rejects a record of another vendor, and keeps that vendor's vacancy as it is", async () => {
    await admin(
      'vacancies',
      'import',
      await file('initech.ndjson', [record('initech', 2000), record('globex', 2001)]),
    );
    const run = await admin(
      '--json',
      'vacancies',
      'import',
      await file('initech-snapshot.ndjson', [
        record('initech', 2000),
        record('globex', 2001, { title: 'Taken over' }),
      ]),
      '--snapshot',
      '--vendor',
      'initech',
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      imported: 0,
      unchanged: 1,
      closed: 0,
      rejected: [
        { line: 2, reasons: ['vendor_id is globex: a snapshot of initech takes only its vacancies'] },
      ],
    });
    expect((await statuses('globex')).get(2001)).toBe('active');
  });

  it('says on every line that the vendor of a snapshot does not exist, and writes nothing', async () => {
    const run = await admin(
      '--json',
      'vacancies',
      'import',
      await file('nobody-snapshot.ndjson', [record('globex', 2101), record('no-such-vendor', 2102)]),
      '--snapshot',
      '--vendor',
      'no-such-vendor',
    );
    expect(run.code).toBe(1);
    const reason = 'vendor no-such-vendor does not exist: a snapshot of no-such-vendor can import nothing';
    expect(JSON.parse(run.stdout)).toMatchObject({
      imported: 0,
      closed: 0,
      rejected: [
        { line: 1, reasons: [reason] },
        { line: 2, reasons: [reason] },
      ],
    });
    expect((await statuses('globex')).has(2101)).toBe(false);
  });

  it('holds a snapshot that would close more than snapshotMaxClose of the active vacancies (and more than 10), writing nothing; --max-close applies it', async () => {
    await admin(
      'vacancies',
      'import',
      await file(
        'umbrella.ndjson',
        Array.from({ length: 40 }, (_, i) => record('umbrella', 3000 + i)),
      ),
    );
    const before = await statuses('umbrella');
    // Keeps 28 of 40 and changes one: 12 to close, 30 %.
    const kept = Array.from({ length: 28 }, (_, i) =>
      record('umbrella', 3000 + i, i === 0 ? { title: 'New' } : {}),
    );
    const path = await file('umbrella-snapshot.ndjson', kept);
    const held = await admin('vacancies', 'import', path, '--snapshot', '--vendor', 'umbrella');
    expect(held.code).toBe(1);
    expect(held.stdout).toBe(
      "held: this snapshot would close 12 of umbrella's 40 active vacancies (30 %), more than snapshotMaxClose " +
        'allows (20 %, and more than 10); nothing was written. If the file is complete, apply it with --max-close 30:\n' +
        `  vacancy-admin vacancies import ${path} --snapshot --vendor umbrella --max-close 30\n`,
    );
    expect(await statuses('umbrella')).toEqual(before);

    const applied = await admin(
      'vacancies',
      'import',
      path,
      '--snapshot',
      '--vendor',
      'umbrella',
      '--max-close',
      '30',
    );
    expect(applied).toMatchObject({ code: 0, stdout: 'imported 1, rejected 0, unchanged 27, closed 12\n' });
    expect([...(await statuses('umbrella')).values()].filter((status) => status === 'closed')).toHaveLength(
      12,
    );
  });

  it('ends, after kill -9 in the middle and a second run, as an uninterrupted run does', async () => {
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'killed', company: 'Killed' });
    await admin(
      'vacancies',
      'import',
      await file(
        'killed.ndjson',
        Array.from({ length: 200 }, (_, i) => record('killed', 4000 + i)),
      ),
    );
    // 150 kept (every one changed), 50 closed: 25 %.
    const snapshot = Array.from({ length: 150 }, (_, i) => record('killed', 4000 + i, { title: `Now ${i}` }));
    const path = await file('killed-snapshot.ndjson', snapshot);
    const since = Date.now();
    const importSnapshot = [
      'vacancies',
      'import',
      path,
      '--snapshot',
      '--vendor',
      'killed',
      '--max-close',
      '30',
    ];
    const child = spawn(
      process.execPath,
      [...entryArguments('admin'), ...cliTarget(tables.endpoint, tables.names), ...importSnapshot],
      { env: { ...process.env, DYNAMODB_ENDPOINT: '' }, stdio: 'ignore' },
    );
    // Killed as soon as it has written something (when it lands after the end, the second run has nothing to do; the
    // property test below covers every point of interruption).
    while ((await writtenSince('killed', since)) < 5 && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));

    const rerun = await admin(...importSnapshot);
    expect(rerun.code).toBe(0);
    const now = await statuses('killed');
    expect([...now.values()].filter((status) => status === 'closed')).toHaveLength(50);
    expect(await changedTitles('killed')).toHaveLength(150);
  });
});

/** How many of a vendor's vacancies changed since `since` (ms), by its change index. */
async function writtenSince(vendorId: string, since: number): Promise<number> {
  const { Count = 0 } = await tables.documentClient.send(
    new QueryCommand({
      TableName: tables.names.vacancies,
      IndexName: CHANGE_INDEX.name,
      KeyConditionExpression: 'v = :v AND c > :since',
      ExpressionAttributeValues: { ':v': vendorId, ':since': changeKey(since, 0) },
      Select: 'COUNT',
    }),
  );
  return Count;
}

/** Ids of a vendor's vacancies whose title the snapshot changed. */
async function changedTitles(vendorId: string): Promise<number[]> {
  const ids = [...(await statuses(vendorId)).keys()];
  const changed: number[] = [];
  for (const id of ids) {
    const { Item } = await tables.documentClient.send(
      new GetCommand({ TableName: tables.names.vacancies, Key: { id }, ConsistentRead: true }),
    );
    if (String(Item?.title).startsWith('Now ')) changed.push(id);
  }
  return changed;
}

describe('a snapshot stopped dead at any point and run again', () => {
  /**
   * A client on which every call after the first `alive` never returns — the process is gone — and a promise of that
   * moment.
   */
  function dyingClient(alive: number): { client: DynamoDBClient; dead: Promise<void> } {
    const client = createDynamoDBClient({ endpoint: tables.endpoint });
    let calls = 0;
    let died = () => {};
    const dead = new Promise<void>((resolve) => {
      died = resolve;
    });
    client.middlewareStack.add(
      (next) => async (args) => {
        calls += 1;
        if (calls <= alive) return next(args);
        died();
        return new Promise(() => {});
      },
      { step: 'initialize', name: 'killNine' },
    );
    return { client, dead };
  }

  it('ends in the state one uninterrupted run leaves (fast-check over sets and interruption points)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 0, maxLength: 30 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 0, maxLength: 30 }),
        fc.array(fc.constantFrom('active', 'inactive', 'draft', 'closed'), { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 0, max: 60 }),
        async (existing, inFile, states, alive) => {
          run += 1;
          // Two vendors start alike: one is interrupted and run again, the other runs once.
          const [clean, killed] = [`clean-${run}`, `killed-${run}`];
          const offset = (vendor: string) => (vendor === clean ? 100_000 : 200_000) + run * 1_000;
          for (const vendor of [clean, killed]) {
            await putVendor(tables.documentClient, tables.names.vendors, {
              vendorId: vendor,
              company: vendor,
            });
            const records = existing.map((n) =>
              record(vendor, offset(vendor) + n, { status: states[n - 1] }),
            );
            if (records.length > 0) {
              await importSnapshot(tables.documentClient, tables.names, parseImportFile(ndjson(records)), {
                vendorId: vendor,
                maxClosePercent: 100,
                clock: CLOCK,
              });
            }
          }
          const snapshotOf = (vendor: string) =>
            parseImportFile(
              ndjson(inFile.map((n) => record(vendor, offset(vendor) + n, { title: `Snapshot ${n}` }))),
            );
          const options = (vendor: string) => ({ vendorId: vendor, maxClosePercent: 100, clock: CLOCK });

          await importSnapshot(tables.documentClient, tables.names, snapshotOf(clean), options(clean));
          // The doomed run is never awaited: it stops dead after `alive` calls (or ends first), its lease left behind.
          const dying = dyingClient(alive);
          const doomed = importSnapshot(
            createDocumentClient(dying.client),
            tables.names,
            snapshotOf(killed),
            options(killed),
          );
          await Promise.race([dying.dead, doomed]);
          await importSnapshot(tables.documentClient, tables.names, snapshotOf(killed), options(killed));

          const state = async (vendor: string) =>
            Promise.all(
              [...(await statuses(vendor))].map(async ([id, status]) => {
                const { Item } = await tables.documentClient.send(
                  new GetCommand({ TableName: tables.names.vacancies, Key: { id }, ConsistentRead: true }),
                );
                return [id - offset(vendor), status, Item?.title];
              }),
            );
          expect(await state(killed)).toEqual(await state(clean));
        },
      ),
      { numRuns: 15 },
    );
  });
});
