/**
 * The embedded engine's indexes after an unclean stop (`lib/local/engine-repair.ts`, docs/design.md#a-kill-timeline):
 * an engine killed (`SIGKILL`, a real process) while vacancies are written to it opens again with every index exactly
 * what its table's items put there — no entry without its item, no item without its entries, no entry of an item's
 * earlier state — and one stopped cleanly opens with nothing to mend. The damage a kill leaves is also planted by
 * hand, one kind of each, to show what the repair removes and writes.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { toVacancyItem } from '../../../../lambda/domain/schema/vacancy-item';
import { createDynamoDBClient } from '../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../lambda/platform/dynamodb/document-client';
import { createTables, localTableNames } from '../../../../lib/create-tables';
import { startEmbeddedDynamoDB } from '../../../../lib/local/embedded-dynamodb';
import {
  dynaliteInternals,
  type IndexRepair,
  OPEN_MARK,
  type TableDescription,
} from '../../../../lib/local/engine-repair';
import { seededRandom } from '../../../../testkit/seeded-random';
import { fixtureVacancy, vacancyRecord } from '../../../../testkit/vacancies';

const CHILD = new URL('../../../../testkit/engine-child.ts', import.meta.url).pathname;
const ROOT = new URL('../../../../', import.meta.url).pathname;
const TABLES = localTableNames('repair-');
/** Writes in flight at once while the engine is killed: enough that some are between an index and their item. */
const IN_FLIGHT = 24;

const SEED = Number(process.env.REPAIR_SEED ?? Date.now() % 1_000_000);

/** A running engine child: its endpoint, what it mended, and its process. */
interface EngineChild {
  readonly process: ChildProcess;
  readonly endpoint: string;
  readonly repaired: IndexRepair | null;
  readonly client: DynamoDBClient;
}

/** Every engine child started: killed after the tests, whatever became of them. */
const children = new Set<ChildProcess>();

async function startEngine(dataDir: string): Promise<EngineChild> {
  const child = fork(CHILD, [dataDir], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: 'ignore' });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const started = await new Promise<{ endpoint: string; repaired: IndexRepair | null }>((resolve, reject) => {
    child.once('message', (message) =>
      resolve(message as { endpoint: string; repaired: IndexRepair | null }),
    );
    child.once('exit', (code) => reject(new Error(`the engine exited (${code}) before it listened`)));
  });
  return { process: child, ...started, client: createDynamoDBClient({ endpoint: started.endpoint }) };
}

async function kill(engine: EngineChild): Promise<void> {
  const exited = new Promise((resolve) => engine.process.once('exit', resolve));
  engine.process.kill('SIGKILL');
  await exited;
  engine.client.destroy();
}

/** Stops it cleanly (SIGTERM: the engine's `stop()`); its exit code, and whether it said it had stopped. */
async function stopCleanly(engine: EngineChild): Promise<{ code: number | null; stopped: boolean }> {
  let stopped = false;
  engine.process.on('message', (message) => {
    if ((message as { stopped?: boolean }).stopped) stopped = true;
  });
  const exited = new Promise<number | null>((resolve) => engine.process.once('exit', resolve));
  engine.process.kill('SIGTERM');
  const code = await exited;
  engine.client.destroy();
  return { code, stopped };
}

/**
 * Writes under way, `IN_FLIGHT` at a time, until `stop()` or until the engine stops answering: new vacancies and new
 * states of earlier ones (their index keys move). `midway()` resolves a random 0.3 to 1 s after the engine answered a
 * first write (it rejects with the first write's failure when none was answered): a kill or a stop then lands among
 * writes — a loaded machine may take seconds to answer the first.
 */
function writesUnderWay(engine: EngineChild, random: () => number, ids: { next: number; stamp: number }) {
  const documents = createDocumentClient(engine.client);
  let stop = false;
  let firstAnswer: () => void = () => {};
  let firstFailure: (error: unknown) => void = () => {};
  const answered = new Promise<void>((resolve, reject) => {
    firstAnswer = resolve;
    firstFailure = reject;
  });
  const writer = async () => {
    while (!stop) {
      const id = random() < 0.5 && ids.next > 10 ? 1 + Math.floor(random() * (ids.next - 1)) : ids.next++;
      ids.stamp += 1;
      const Item = toVacancyItem(
        fixtureVacancy(
          vacancyRecord({ id, vendor_id: 'acme', status: random() < 0.2 ? 'closed' : 'active' }),
        ),
        ids.stamp,
      );
      await documents
        .send(new PutCommand({ TableName: TABLES.vacancies, Item }))
        .then(firstAnswer, (error) => {
          stop = true;
          firstFailure(error);
        });
    }
  };
  const writers = Array.from({ length: IN_FLIGHT }, writer);
  return {
    async midway() {
      await answered;
      await new Promise((resolve) => setTimeout(resolve, 300 + random() * 700));
    },
    async stop() {
      stop = true;
      await Promise.all(writers);
    },
  };
}

/** Every item of a table, or every entry of one of its indexes. */
async function scanAll(client: DynamoDBClient, indexName?: string): Promise<Record<string, unknown>[]> {
  const documents = createDocumentClient(client);
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({
        TableName: TABLES.vacancies,
        ...(indexName && { IndexName: indexName }),
        ...(start && { ExclusiveStartKey: start }),
      }),
    );
    found.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

const keyText = (value: unknown) =>
  value instanceof Uint8Array ? Buffer.from(value).toString('hex') : JSON.stringify(value);

/**
 * Each index of the vacancies table, as found and as its items imply: the entries (the item's id and the index's key
 * attributes), sorted, side by side.
 */
async function indexesAgainstTable(client: DynamoDBClient) {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLES.vacancies }));
  const items = await scanAll(client);
  const found: Record<string, string[]> = {};
  const implied: Record<string, string[]> = {};
  for (const index of Table?.GlobalSecondaryIndexes ?? []) {
    const name = index.IndexName as string;
    const keys = (index.KeySchema ?? []).map((key) => key.AttributeName as string);
    const entry = (item: Record<string, unknown>) =>
      [String(item.id), ...keys.map((key) => keyText(item[key]))].join(' ');
    found[name] = (await scanAll(client, name)).map(entry).sort();
    implied[name] = items
      .filter((item) => keys.every((key) => item[key] !== undefined))
      .map(entry)
      .sort();
  }
  return { found, implied, items: items.length };
}

describe(`the embedded engine killed mid-write (seed ${SEED})`, () => {
  let dataDir: string;
  const random = seededRandom(SEED);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vva-engine-'));
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('opens again with every index what its items put there', async () => {
    let engine = await startEngine(dataDir);
    try {
      expect(engine.repaired).toBeNull();
      await createTables(engine.client, TABLES);
      const ids = { next: 1, stamp: Date.UTC(2026, 10, 1) };
      for (let round = 0; round < 3; round += 1) {
        const writes = writesUnderWay(engine, random, ids);
        await writes.midway();
        await kill(engine);
        await writes.stop();

        engine = await startEngine(dataDir);
        // Killed with a store open: it was mended before it served.
        expect(engine.repaired).toMatchObject({ tables: expect.any(Number), items: expect.any(Number) });
        const { found, implied, items } = await indexesAgainstTable(engine.client);
        expect(items).toBeGreaterThan(0);
        expect(found).toEqual(implied);
      }
      await stopCleanly(engine);
      engine = await startEngine(dataDir);
      expect(engine.repaired).toBeNull();
    } finally {
      // Ended whatever the outcome: an engine left running would hold the folder the next tests open.
      if (engine.process.exitCode === null && engine.process.signalCode === null) await stopCleanly(engine);
    }
  }, 120_000);

  it('stops cleanly with writes under way: it answers them first, and leaves nothing to mend', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vva-engine-'));
    let engine = await startEngine(folder);
    await createTables(engine.client, TABLES);
    const ids = { next: 1, stamp: Date.UTC(2026, 10, 1) };
    // A Ctrl-C mid-import once closed the store between an item's index entries and the item: dynalite threw.
    for (let round = 0; round < 3; round += 1) {
      const writes = writesUnderWay(engine, random, ids);
      await writes.midway();
      expect(await stopCleanly(engine)).toEqual({ code: 0, stopped: true });
      await writes.stop();
      engine = await startEngine(folder);
      expect(engine.repaired).toBeNull();
      const { found, implied } = await indexesAgainstTable(engine.client);
      expect(found).toEqual(implied);
    }
    await stopCleanly(engine);
    await rm(folder, { recursive: true, force: true });
  }, 120_000);

  it('leaves no mark when it could not listen, and refuses a folder another engine has open, in words', async () => {
    const running = await startEmbeddedDynamoDB({ dataDir });
    const busyPort = Number(new URL(running.endpoint).port);
    const other = await mkdtemp(join(tmpdir(), 'vva-engine-'));
    await expect(startEmbeddedDynamoDB({ dataDir: other, port: busyPort })).rejects.toThrow(/EADDRINUSE/);
    expect(existsSync(join(other, OPEN_MARK))).toBe(false);
    await expect(startEmbeddedDynamoDB({ dataDir })).rejects.toThrow(
      `${dataDir} is in use by another process (another npm start?): stop that, or choose another --data-dir.`,
    );
    // The running engine's mark is its own: still there while it runs, gone once it stops.
    expect(existsSync(join(dataDir, OPEN_MARK))).toBe(true);
    await running.stop();
    expect(existsSync(join(dataDir, OPEN_MARK))).toBe(false);
    await rm(other, { recursive: true, force: true });
  });

  it('removes the entries no item makes, and writes those missing', async () => {
    let engine = await startEngine(dataDir);
    const documents = createDocumentClient(engine.client);
    const stored = (id: number, stamp: number) =>
      toVacancyItem(fixtureVacancy(vacancyRecord({ id, vendor_id: 'globex' })), stamp);
    for (const id of [900_001, 900_002])
      await documents.send(
        new PutCommand({ TableName: TABLES.vacancies, Item: stored(id, Date.UTC(2026, 10, 2)) }),
      );
    await stopCleanly(engine);

    // What a kill between an index write and its item's leaves, planted in the store as dynalite keeps it: items in
    // DynamoDB's JSON, binary values in base64.
    const { Level, getIndexActions } = dynaliteInternals();
    const store = new Level(dataDir, { valueEncoding: 'json' });
    await store.open();
    const table = (await store.get(`table~${TABLES.vacancies}`)) as unknown as TableDescription;
    const wire = (item: object) =>
      JSON.parse(
        JSON.stringify(marshall(item, { removeUndefinedValues: true }), (_key, value) =>
          value instanceof Uint8Array || value?.type === 'Buffer'
            ? Buffer.from(value.data ?? value).toString('base64')
            : value,
        ),
      );
    const entriesOf = (item: Record<string, unknown>) =>
      (table.GlobalSecondaryIndexes ?? []).flatMap((index) =>
        getIndexActions([index], undefined, item, table).puts.map((put) => ({
          key: `index-global~${TABLES.vacancies}~${index.IndexName}~${put.key}`,
          value: put.item,
        })),
      );
    // 1: the entries of an item that is not there; 2: the entries of an item's earlier state; 3: an item's entries gone.
    const ghost = entriesOf(wire(stored(900_999, Date.UTC(2026, 10, 2))));
    const earlier = entriesOf(wire(stored(900_001, Date.UTC(2026, 10, 1))));
    const dropped = entriesOf(wire(stored(900_002, Date.UTC(2026, 10, 2))));
    await store.batch([
      ...[...ghost, ...earlier].map((entry) => ({ type: 'put' as const, ...entry })),
      ...dropped.map(({ key }) => ({ type: 'del' as const, key })),
    ]);
    await store.close();
    await writeFile(join(dataDir, OPEN_MARK), 'killed\n');
    expect(ghost.length).toBeGreaterThan(0);
    expect(dropped.length).toBeGreaterThan(0);

    engine = await startEngine(dataDir);
    expect(engine.repaired?.removed).toBeGreaterThanOrEqual(ghost.length + 1);
    expect(engine.repaired?.added).toBeGreaterThanOrEqual(dropped.length);
    const { found, implied } = await indexesAgainstTable(engine.client);
    expect(found).toEqual(implied);
    await stopCleanly(engine);
  });
});
