/**
 * Hostile files in the inbox (docs/operating.md#limits-of-a-file, docs/design.md#hostile-files), through the inbox's
 * own code on a folder (`npm start -- --inbox`'s objects) and the embedded engine: a file past a limit is refused
 * whole — nothing of it written — with the limit and where it was reached; text that is not NDJSON is refused in one
 * line; a link or a pipe is never followed nor read; a file renamed while it is imported is reported under the name
 * it was picked up by; and an import stopped half-way then resumed reports everything the file wrote.
 */
import { execFileSync } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ImportFileError } from '../../../../../lambda/domain/import/errors';
import { IMPORT_LIMITS, type ImportLimits, readImportFile } from '../../../../../lambda/domain/import/file';
import {
  handleInboxKey,
  type InboxContext,
  type InboxObjects,
} from '../../../../../lambda/functions/inbox/inbox';
import type { FileReport } from '../../../../../lambda/functions/inbox/report';
import { folderObjects } from '../../../../../lib/local/inbox-folder';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { gzipMembers } from '../../../../../testkit/gzip-bomb';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

const ndjson = (records: readonly Record<string, unknown>[]) =>
  records.map((record) => JSON.stringify(record)).join('\n');
const acme = (id: number) =>
  vacancyRecord({ id, vendor_id: 'acme', url: `https://careers.example.com/jobs/${id}` });
/** Limits a test can reach with a few records and kilobytes. */
const SMALL: ImportLimits = { records: 3, lineBytes: 1024, fileBytes: 8 * 1024, lines: 200 };

let tables: TestTables;
let folder: string;

function context(overrides: Partial<InboxContext> = {}): InboxContext {
  return {
    objects: folderObjects(folder),
    client: tables.documentClient,
    tables: tables.names,
    clock: CLOCK,
    maxClosePercent: 20,
    retryDelaysMs: [],
    ...overrides,
  };
}

/** Puts a file under incoming/ and hands it to the inbox; its outcome. */
async function drop(path: string, body: string | Uint8Array, overrides: Partial<InboxContext> = {}) {
  const target = join(folder, 'incoming', path);
  await mkdir(join(target, '..'), { recursive: true });
  await writeFile(target, body);
  return handleInboxKey(context(overrides), `incoming/${path}`);
}

const report = async (path: string) =>
  JSON.parse(await readFile(join(folder, 'reports', `${path}.json`), 'utf8')) as FileReport;
const exists = (path: string) =>
  access(join(folder, path)).then(
    () => true,
    () => false,
  );

/** The ids among `ids` that are stored. */
async function stored(ids: readonly number[]): Promise<number[]> {
  const { Responses = {} } = await tables.documentClient.send(
    new BatchGetCommand({
      RequestItems: { [tables.names.vacancies]: { Keys: ids.map((id) => ({ id })), ConsistentRead: true } },
    }),
  );
  return (Responses[tables.names.vacancies] ?? []).map(({ id }) => id as number).sort((a, b) => a - b);
}

beforeAll(async () => {
  tables = await createTestTables();
  folder = await mkdtemp(join(tmpdir(), 'hostile-files-'));
  await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme' });
});
afterAll(async () => {
  await tables.drop();
  await rm(folder, { recursive: true, force: true });
});

describe('a file past a limit', () => {
  it.each([
    [
      'records',
      ndjson([acme(1), acme(2), acme(3), acme(4)]),
      'the file has more than 3 records, the most a file may hold: the limit was reached at line 4; split it',
    ],
    [
      'line',
      `${ndjson([acme(11)])}\n${JSON.stringify({ ...acme(12), description: 'x'.repeat(2_000) })}`,
      'line 2 is longer than 1,024 bytes (1 KiB), the most a line may hold',
    ],
    [
      'lines',
      `${ndjson([acme(16)])}\n${'\n'.repeat(200)}`,
      'the file has more than 200 lines (blank lines count too), the most a file may hold: the limit was reached at line 201; split it',
    ],
    [
      'file',
      `${ndjson([acme(21)])}\n${`${' '.repeat(1_000)}\n`.repeat(9)}`,
      /^the file is larger than 8,192 bytes \(8 KiB\), the most a file may hold: the limit was reached at byte 8193 \(line \d+\); split it$/,
    ],
  ])(
    'is refused whole — %s — before anything of it is written, the report naming the limit and where',
    async (limit, body, reason) => {
      const ids = [...body.matchAll(/"id":(\d+)/g)].map(([, id]) => Number(id));
      const outcome = await drop(`over-${limit}.ndjson`, body, { limits: SMALL });
      expect(outcome).toEqual({ handled: expect.objectContaining({ outcome: 'failed' }) });
      expect(await report(`over-${limit}.ndjson`)).toMatchObject({
        outcome: 'failed',
        read: 0,
        written: 0,
        reason: typeof reason === 'string' ? reason : expect.stringMatching(reason),
      });
      expect(await exists(`failed/over-${limit}.ndjson`)).toBe(true);
      expect(await stored(ids)).toEqual([]);
    },
  );

  it('counts a line without its line end: a line of exactly the limit passes with LF and with CRLF — the CR and the LF in one chunk or two — and one byte more is refused either way', async () => {
    const limits: ImportLimits = { ...SMALL, records: 10 };
    /** A record's line of exactly `bytes` bytes (its description padded). */
    const lineOf = (id: number, bytes: number) => {
      const record = { ...acme(id), description: '' };
      const pad = bytes - Buffer.byteLength(JSON.stringify(record));
      return JSON.stringify({ ...record, description: 'x'.repeat(pad) });
    };
    const read = async (chunks: readonly string[]) => {
      const ids: unknown[] = [];
      for await (const record of readImportFile(
        chunks.map((chunk) => Buffer.from(chunk)),
        { limits },
      ))
        ids.push((record.value as { id?: unknown } | undefined)?.id);
      return ids;
    };
    const exact = lineOf(71, limits.lineBytes);
    expect(Buffer.byteLength(exact)).toBe(1024);
    expect(await read([`${exact}\n`])).toEqual([71]);
    expect(await read([`${exact}\r\n`, `${lineOf(72, 600)}\r\n`])).toEqual([71, 72]);
    expect(await read([`${exact}\r`, '\n'])).toEqual([71]);
    const tooLong = new ImportFileError(
      'line 1 is longer than 1,024 bytes (1 KiB), the most a line may hold',
    );
    const over = lineOf(73, limits.lineBytes + 1);
    await expect(read([`${over}\n`])).rejects.toThrow(tooLong);
    await expect(read([`${over}\r\n`])).rejects.toThrow(tooLong);
    await expect(read([`${over.slice(0, -1)}\r`, 'x\n'])).rejects.toThrow(tooLong);
    // A CR that no LF follows is no line end: the last line, counted whole.
    await expect(read([`${exact}\r`])).rejects.toThrow(tooLong);
  });

  it('is refused as a gzip bomb expands, not after: the rest of it is never read', async () => {
    let membersRead = 0;
    const bomb = Readable.from(
      (function* () {
        for (const member of gzipMembers({ unit: `${' '.repeat(99)}\n`, bytes: 1024 ** 3 })) {
          membersRead += 1;
          yield member;
        }
      })(),
    );
    const limits = { ...IMPORT_LIMITS, fileBytes: 4 * 1024 * 1024 };
    const reading = (async () => {
      for await (const _ of readImportFile(bomb, { compressed: true, limits })) {
      }
    })();
    await expect(reading).rejects.toThrow(
      new ImportFileError(
        'the file is larger than 4,194,304 bytes (4 MiB) once decompressed, the most a file may hold: the limit was reached at byte 4194305 (line 41944); split it',
      ),
    );
    // 4 MiB of a 1 GiB bomb: the members that expanded to it and those the streams buffer, of its 1,024; the
    // source let go of.
    expect(membersRead).toBeLessThan(64);
    expect(bomb.destroyed).toBe(true);
  });

  it('is refused at its 1,000,001st line when it holds more, blank lines too: a gzip of line feeds in its first megabyte', async () => {
    // A record, then a million blank lines: 1,000,001 lines in about 1 MB (1 KB as gzip).
    const body = gzipSync(`${JSON.stringify(acme(61))}\n${'\n'.repeat(1_000_000)}`);
    const outcome = await drop('blank-lines.ndjson.gz', body);
    expect(outcome).toEqual({ handled: expect.objectContaining({ outcome: 'failed' }) });
    expect(await report('blank-lines.ndjson.gz')).toMatchObject({
      outcome: 'failed',
      read: 0,
      written: 0,
      reason:
        'the file has more than 1,000,000 lines (blank lines count too), the most a file may hold: the limit was reached at line 1000001; split it',
    });
    expect(await exists('failed/blank-lines.ndjson.gz')).toBe(true);
    expect(await stored([61])).toEqual([]);
  });

  it('is not refused for its lines when it holds exactly 1,000,000, blank lines included', async () => {
    const body = gzipSync(
      `${JSON.stringify(acme(62))}\n${'\n'.repeat(999_998)}${JSON.stringify(acme(63))}\n`,
    );
    await drop('million-lines.ndjson.gz', body);
    expect(await report('million-lines.ndjson.gz')).toMatchObject({
      outcome: 'done',
      read: 2,
      written: 2,
      rejected: 0,
    });
    expect(await stored([62, 63])).toEqual([62, 63]);
  });

  it('is refused when an element of a JSON array is longer than a line may be', async () => {
    const body = `[\n${JSON.stringify(acme(31))},\n{"description": [\n${'"xxxxxxxxxx",\n'.repeat(100)}"x"]}\n]`;
    await drop('long-element.json', body, { limits: SMALL });
    expect((await report('long-element.json')).reason).toBe(
      'the element of the array that starts on line 3 is longer than 1,024 bytes (1 KiB), the most a record may hold',
    );
    expect(await stored([31])).toEqual([]);
  });
});

describe('a file that is not NDJSON', () => {
  it('is refused whole in one line: text with no JSON object, or only a few among its lines', async () => {
    const readme = await readFile(new URL('../../../../../README.md', import.meta.url));
    await drop('README.ndjson', readme);
    expect((await report('README.ndjson')).reason).toMatch(
      /^not NDJSON: \d+ of its \d+ lines of text are not JSON objects$/,
    );
    await drop('numbers.ndjson', '1\n2\n"three"\n');
    expect((await report('numbers.ndjson')).reason).toBe('not NDJSON: none of its 3 lines is a JSON object');
    await drop('numbers.json', '[1, 2, 3]');
    expect((await report('numbers.json')).reason).toBe(
      'not a JSON array of records: none of its 3 elements is a JSON object',
    );
  });

  it('is refused whole when it is UTF-16, whose lines are no JSON at all', async () => {
    const text = ndjson([acme(41), acme(42)]);
    await drop('utf16.ndjson', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(await report('utf16.ndjson')).toMatchObject({
      outcome: 'failed',
      reason: 'not NDJSON: none of its 2 lines is a JSON object',
    });
    expect(await stored([41, 42])).toEqual([]);
  });
});

describe('an entry that is not a regular file', () => {
  it('is never followed nor read: a symbolic link goes to failed/ with why, and nothing it points to is quoted', async () => {
    const secret = join(folder, 'passwd');
    await writeFile(secret, 'root:x:0:0:root:/root:/bin/bash\n');
    await mkdir(join(folder, 'incoming'), { recursive: true });
    await symlink(secret, join(folder, 'incoming', 'link.ndjson'));
    const outcome = await handleInboxKey(context(), 'incoming/link.ndjson');
    const reported = await report('link.ndjson');
    expect(outcome).toEqual({ handled: reported });
    expect(reported).toMatchObject({
      outcome: 'failed',
      read: 0,
      reason:
        'a symbolic link: the inbox reads only regular files, and never follows a link; put the file itself in incoming/',
    });
    expect(JSON.stringify(reported)).not.toContain('root:x');
    // The link itself moved, not what it points to.
    expect(await readFile(join(folder, 'failed', 'link.ndjson'), 'utf8')).toContain('root:x');
    expect(await readFile(secret, 'utf8')).toContain('root:x');
  });

  it('never opens a named pipe (which would wait for a writer forever)', async () => {
    execFileSync('mkfifo', [join(folder, 'incoming', 'pipe.ndjson')]);
    await handleInboxKey(context(), 'incoming/pipe.ndjson');
    expect((await report('pipe.ndjson')).reason).toMatch(/^a named pipe: the inbox reads only regular files/);
    expect(await exists('incoming/pipe.ndjson')).toBe(false);
  });
});

describe('a file renamed or removed while it is imported', () => {
  it.each([
    ['renamed', (path: string) => rename(path, `${path}.moved`)],
    ['removed', (path: string) => unlink(path)],
  ])(
    'is %s: imported as picked up, and reported under the name it was picked up by',
    async (what, change) => {
      const base = folderObjects(folder);
      const objects: InboxObjects = {
        ...base,
        async open(key) {
          const opened = await base.open(key);
          await change(join(folder, ...key.split('/')));
          return opened;
        },
      };
      const ids = what === 'renamed' ? [51, 52, 53] : [54, 55];
      await drop(`${what}.ndjson`, ndjson(ids.map(acme)), { objects });
      expect(await report(`${what}.ndjson`)).toMatchObject({
        outcome: 'done',
        read: ids.length,
        written: ids.length,
        unchanged: 0,
        notMoved: expect.stringMatching(/^the file was no longer under incoming\/ when it was imported/),
      });
      expect(await stored(ids)).toEqual(ids);
    },
  );
});

describe('an import stopped half-way and resumed', () => {
  it('reports every record the file wrote in any of its attempts as written', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => 100 + i);
    const stopping = new AbortController();
    let puts = 0;
    // The first attempt stops (as a process stopping does) once 15 records are written.
    const client = Object.create(tables.documentClient, {
      send: {
        value: async (command: unknown, options?: unknown) => {
          const output = await (tables.documentClient.send as (c: unknown, o?: unknown) => Promise<unknown>)(
            command,
            options,
          );
          if (command instanceof PutItemCommand && ++puts === 15) stopping.abort();
          return output;
        },
      },
    }) as DynamoDBDocumentClient;
    const first = await drop('resumed.ndjson', ndjson(ids.map(acme)), {
      client,
      signal: stopping.signal,
      concurrency: 2,
    });
    expect(first).toEqual({ unfinished: expect.objectContaining({ outcome: 'incoming' }) });
    const partly = (first as { unfinished: FileReport }).unfinished;
    expect(partly.written).toBeGreaterThanOrEqual(15);
    expect(partly.written).toBeLessThan(ids.length);
    expect(await exists('incoming/resumed.ndjson')).toBe(true);

    // The next start takes the file again: what the first attempt wrote is the file's too.
    await handleInboxKey(context(), 'incoming/resumed.ndjson');
    expect(await report('resumed.ndjson')).toMatchObject({
      outcome: 'done',
      read: 40,
      written: 40,
      unchanged: 0,
      rejected: 0,
    });
    expect(await stored(ids)).toEqual(ids);

    // The same records in another file change nothing: unchanged, not written.
    await drop('resumed-again.ndjson', ndjson(ids.map(acme)));
    expect(await report('resumed-again.ndjson')).toMatchObject({ read: 40, written: 0, unchanged: 40 });
  });
});
