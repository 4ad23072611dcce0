/**
 * The inbox through a real S3-compatible server (s3rver), the real S3 client and the S3 event shape Lambda receives
 * (docs/operating.md#the-inbox): a file in → imported, moved, reported; delivered twice → nothing changes; a bad
 * line → its number in the report; a failing database → retried, then `failed/` and a failed invocation (the
 * `ImportFailing` alarm's metric, the function's `Errors`).
 */
import { gzipSync } from 'node:zlib';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { S3Event } from 'aws-lambda';
import { isCurrent } from '../../../../../lambda/domain/schema/summary';
import { CHANGE_INDEX } from '../../../../../lambda/domain/schema/tables';
import { InboxFileFailedError } from '../../../../../lambda/functions/inbox/errors';
import { s3EventReceiver } from '../../../../../lambda/functions/inbox/factory';
import { handleInboxKey, type InboxObjects } from '../../../../../lambda/functions/inbox/inbox';
import type { FileReport } from '../../../../../lambda/functions/inbox/report';
import { s3Objects } from '../../../../../lambda/functions/inbox/s3-objects';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables, vendorEntries } from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { type FaultProxy, startFaultProxy } from '../../../../../testkit/fault-proxy';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { startTestS3, type TestS3 } from '../../../../../testkit/s3-server';
import { exactCounts, storedSummary, summaryCounts } from '../../../../../testkit/summaries';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

const ndjson = (records: readonly Record<string, unknown>[]) =>
  records.map((record) => JSON.stringify(record)).join('\n');
const acme = (id: number, overrides: Record<string, unknown> = {}) =>
  vacancyRecord({ id, vendor_id: 'acme', url: `https://careers.example.com/jobs/${id}`, ...overrides });
const invocation = { getRemainingTimeInMillis: () => 900_000 };

let s3: TestS3;
let tables: TestTables;
const logged: Record<string, unknown>[] = [];

/** The inbox function's receiver on the test's bucket and tables. */
function receiver(on: TestTables = tables, options: { retryDelaysMs?: number[] } = {}) {
  return s3EventReceiver({
    s3: s3.client,
    client: on.documentClient,
    tables: on.names,
    clock: CLOCK,
    maxClosePercent: 20,
    reserveMs: 60_000,
    retryDelaysMs: options.retryDelaysMs ?? [10, 10],
    logger: { info: (message, fields) => logged.push({ message, ...fields }) },
  });
}

/** Puts a file and delivers the S3 event its put made; the event, for delivering again. */
async function drop(key: string, body: string | Uint8Array, on?: TestTables): Promise<S3Event> {
  const before = s3.events.length;
  await s3.put(key, body);
  const event = s3.events[before];
  if (!event || s3.events.length !== before + 1) throw new Error(`no single event for ${key}`);
  await receiver(on)(event, invocation);
  return event;
}

const report = async (path: string) =>
  JSON.parse((await s3.text(`reports/${path}.json`)) ?? 'null') as FileReport;

/** Every item of a vendor on the change index: id, status and change time. */
async function vendorItems(vendorId: string, on: TestTables = tables) {
  const items = await Promise.all(
    (await vendorEntries(on, CHANGE_INDEX, vendorId)).map(async ({ id }) => {
      const { Item } = await on.documentClient.send(
        new GetCommand({
          TableName: on.names.vacancies,
          Key: { id },
          ConsistentRead: true,
        }),
      );
      return [Item?.id, Item?.status, Item?.updated_at] as [number, string, number];
    }),
  );
  return items.sort(([a], [b]) => a - b);
}

beforeAll(async () => {
  s3 = await startTestS3();
  tables = await createTestTables();
  for (const id of ['acme', 'globex'])
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: id, company: id });
});
afterAll(async () => {
  await tables.drop();
  await s3.stop();
});
afterEach(() => {
  logged.length = 0;
});

describe('a file put under incoming/', () => {
  it('is imported, moved to done/ and reported; its vacancies are listed and the summary counts them exactly', async () => {
    await drop('incoming/2026-11-25/first.ndjson', ndjson([acme(1), acme(2), acme(3, { status: 'draft' })]));

    expect(await s3.keys()).toEqual(['done/2026-11-25/first.ndjson', 'reports/2026-11-25/first.ndjson.json']);
    expect(await report('2026-11-25/first.ndjson')).toEqual({
      file: '2026-11-25/first.ndjson',
      outcome: 'done',
      read: 3,
      written: 3,
      unchanged: 0,
      rejected: 0,
      closed: 0,
      rejections: [],
      warnings: 0,
      warningLines: [],
      seconds: expect.any(Number),
    });
    expect((await vendorItems('acme')).map(([id, status]) => [id, status])).toEqual([
      [1, 'active'],
      [2, 'active'],
      [3, 'draft'],
    ]);
    const listing = await testListingHandler(tables)(
      listingEvent({ query: 'per_page=100', authorizer: { vendorId: 'acme', company: 'Acme' } }),
      lambdaContext('listing'),
    );
    expect((JSON.parse(listing.body) as ListingResponse).data.map(({ id }) => id).sort()).toEqual([1, 2]);
    expect(summaryCounts(await storedSummary(tables.documentClient, tables.names, 'acme'))).toEqual(
      await exactCounts(tables.documentClient, tables.names, 'acme'),
    );
    // One log line per file, with its counts and none of its lines.
    expect(logged).toEqual([
      expect.objectContaining({
        message: 'Inbox file',
        file: '2026-11-25/first.ndjson',
        written: 3,
        read: 3,
      }),
    ]);
    expect(logged[0]).not.toHaveProperty('rejections');
  });

  it('changes nothing when its event is delivered again, or when it is put again', async () => {
    const event = await drop('incoming/again.ndjson', ndjson([acme(10), acme(11)]));
    const items = await vendorItems('acme');
    const summary = await storedSummary(tables.documentClient, tables.names, 'acme');
    const firstReport = await report('again.ndjson');

    // The same event again: the file has moved; nothing is read, written or reported.
    const outcomes = await receiver()(event, invocation);
    expect(outcomes).toEqual([{ gone: true }]);
    expect(await report('again.ndjson')).toEqual(firstReport);
    // The same file put again: every record unchanged.
    await drop('incoming/again.ndjson', ndjson([acme(10), acme(11)]));
    expect(await report('again.ndjson')).toMatchObject({
      outcome: 'done',
      read: 2,
      written: 0,
      unchanged: 2,
    });

    expect(await vendorItems('acme')).toEqual(items);
    expect(await storedSummary(tables.documentClient, tables.names, 'acme')).toMatchObject({
      ranges: summary?.ranges,
      days: summary?.days,
    });
  });

  it('reports a malformed line by its number and imports the rest', async () => {
    const body = [JSON.stringify(acme(20)), '{"id": 21, "vendor_id": "acme",', JSON.stringify(acme(22))].join(
      '\n',
    );
    await drop('incoming/partly bad.ndjson', body);
    const reported = await report('partly bad.ndjson');
    expect(reported).toMatchObject({ outcome: 'done', read: 3, written: 2, unchanged: 0, rejected: 1 });
    expect(reported.rejections).toEqual([{ line: 2, reason: expect.stringMatching(/^not valid JSON/) }]);
    expect(await s3.text('done/partly bad.ndjson')).toBe(body);
  });

  it('moves a file whose every record was rejected to done/ as "rejected", and fails the invocation (ImportFailing)', async () => {
    const body = [
      JSON.stringify(acme(70, { type: 9 })),
      JSON.stringify({ ...acme(71), vendor_id: 'nobody' }),
    ].join('\n');
    await s3.put('incoming/all bad.ndjson', body);
    const event = s3.events.at(-1) as S3Event;
    await expect(receiver()(event, invocation)).rejects.toBeInstanceOf(InboxFileFailedError);
    const reported = await report('all bad.ndjson');
    expect(reported).toMatchObject({
      outcome: 'rejected',
      read: 2,
      written: 0,
      unchanged: 0,
      rejected: 2,
      reason: 'every record of the file was rejected (2 of 2): none was imported; see rejections',
    });
    expect(reported.rejections.map(({ line }) => line)).toEqual([1, 2]);
    expect(logged).toContainEqual(expect.objectContaining({ message: 'Inbox file', outcome: 'rejected' }));
    expect(await s3.text('done/all bad.ndjson')).toBe(body);
    expect(await s3.text('incoming/all bad.ndjson')).toBeUndefined();
    // Lambda's retry of the failed invocation finds the file handled: it succeeds, and the report stays.
    expect(await receiver()(event, invocation)).toEqual([{ gone: true }]);
    expect(await report('all bad.ndjson')).toEqual(reported);
    // A file with one record imported is done, its rejected lines listed; an empty file is done, nothing to import.
    await drop('incoming/one good.ndjson', `${body}\n${JSON.stringify(acme(72))}`);
    expect(await report('one good.ndjson')).toMatchObject({
      outcome: 'done',
      read: 3,
      written: 1,
      rejected: 2,
    });
    await drop('incoming/empty.ndjson', '\n\n');
    expect(await report('empty.ndjson')).toMatchObject({ outcome: 'done', read: 0 });
  });

  it('reads gzip files and JSON arrays', async () => {
    await drop('incoming/array.json.gz', gzipSync(JSON.stringify([acme(30), acme(31)], null, 2)));
    expect(await report('array.json.gz')).toMatchObject({ outcome: 'done', read: 2, written: 2 });
  });

  it('records an active vacancy past its deadline as expired, so the summary stays trusted', async () => {
    await drop('incoming/late.ndjson', ndjson([acme(40, { deadline: '2020-01-31' }), acme(41)]));
    expect((await vendorItems('acme')).find(([id]) => id === 40)?.[1]).toBe('expired');
    const summary = await storedSummary(tables.documentClient, tables.names, 'acme');
    const now = Date.now() + 60_000;
    expect(summary && isCurrent(summary, now, CLOCK.today(new Date(now)), 5_000)).toBe(true);
  });

  it('sends a file that is not an import file, or cannot be read, to failed/ with the reason, and fails the invocation', async () => {
    for (const [path, body, reason] of [
      ['notes.txt', 'hello', /must end in \.ndjson or \.json/],
      ['broken.ndjson.gz', 'not gzip', /not valid gzip/],
      ['broken.json', '[{"id": 1},', /not a valid JSON array/],
    ] as const) {
      await s3.put(`incoming/${path}`, body);
      const event = s3.events.at(-1) as S3Event;
      await expect(receiver()(event, invocation)).rejects.toBeInstanceOf(InboxFileFailedError);
      expect(await s3.text(`failed/${path}`)).toBe(body);
      expect(await report(path)).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(reason) });
    }
  });

  it('is imported as picked up and reported under its name when it is removed meanwhile', async () => {
    await s3.put('incoming/vanishing.ndjson', ndjson([acme(60), acme(61)]));
    const bucket = s3Objects(s3.client, s3.bucket);
    const objects: InboxObjects = {
      ...bucket,
      async open(key) {
        const opened = await bucket.open(key);
        await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
        return opened;
      },
    };
    await handleInboxKey(
      { objects, client: tables.documentClient, tables: tables.names, clock: CLOCK, maxClosePercent: 20 },
      'incoming/vanishing.ndjson',
    );
    expect(await report('vanishing.ndjson')).toMatchObject({
      outcome: 'done',
      read: 2,
      written: 2,
      notMoved: expect.stringMatching(/renamed or removed meanwhile/),
    });
    expect((await vendorItems('acme')).map(([id]) => id)).toEqual(expect.arrayContaining([60, 61]));
  });

  it('ignores folders and hidden files', async () => {
    await s3.put('incoming/folder/', '');
    await s3.put('incoming/.upload.ndjson', ndjson([acme(50)]));
    const outcomes = await Promise.all(s3.events.slice(-2).map((event) => receiver()(event, invocation)));
    expect(outcomes.flat()).toEqual([{ ignored: 'a folder' }, { ignored: 'a hidden file' }]);
    expect(await s3.text('incoming/.upload.ndjson')).toBeDefined();
  });
});

describe('a failing database', () => {
  let proxy: FaultProxy;
  let faulty: TestTables;
  beforeAll(async () => {
    proxy = await startFaultProxy(process.env.DYNAMODB_ENDPOINT as string);
    faulty = await createTestTables({ connect: proxy.endpoint, maxAttempts: 2 });
    await putVendor(faulty.documentClient, faulty.names.vendors, { vendorId: 'acme', company: 'Acme' });
  });
  afterAll(async () => {
    await faulty.drop();
    await proxy.stop();
  });

  it('is retried: a file whose writes fail for a while is imported all the same, counted once', async () => {
    const records = Array.from({ length: 30 }, (_, i) => acme(100 + i));
    proxy.inject({ operation: 'PutItem', kind: 'fail', after: 10, times: 6 });
    await drop('incoming/flaky.ndjson', ndjson(records), faulty);
    await proxy.clear();
    expect(await report('flaky.ndjson')).toMatchObject({
      outcome: 'done',
      read: 30,
      written: 30,
      unchanged: 0,
    });
    expect(await vendorItems('acme', faulty)).toHaveLength(30);
  });

  it('sends the file to failed/ when it keeps failing, with the lines not written, and fails the invocation', async () => {
    const records = Array.from({ length: 30 }, (_, i) => acme(200 + i));
    proxy.inject({ operation: 'PutItem', kind: 'fail', after: 5 });
    await s3.put('incoming/down.ndjson', ndjson(records));
    const event = s3.events.at(-1) as S3Event;
    await expect(receiver(faulty)(event, invocation)).rejects.toBeInstanceOf(InboxFileFailedError);
    await proxy.clear();
    const reported = await report('down.ndjson');
    expect(reported).toMatchObject({
      outcome: 'failed',
      read: 30,
      reason: expect.stringMatching(/DynamoDB failed/),
    });
    expect(reported.written + reported.unchanged + (reported.notWritten?.length ?? 0)).toBe(30);
    expect(await s3.text('failed/down.ndjson')).toBeDefined();
    expect(await s3.text('incoming/down.ndjson')).toBeUndefined();
  });
});
