/**
 * The inbox fuzzed with hostile bytes (docs/design.md#hostile-files): random bytes, gzip cut short or nested, small
 * bombs, huge lines, every encoding a spreadsheet writes — the import never escapes its error boundary, and every
 * file ends in `done/` or `failed/` with its report. Then a real bomb (more than 1 GiB once decompressed) in a
 * process of its own, whose peak memory is measured: it stays small while the bomb is refused.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ImportFileError } from '../../../../../lambda/domain/import/errors';
import {
  type ImportLimits,
  parseImportFile,
  readImportFile,
  type SourceRecord,
} from '../../../../../lambda/domain/import/file';
import { handleInboxKey } from '../../../../../lambda/functions/inbox/inbox';
import { type FileReport, outcomeFolder } from '../../../../../lambda/functions/inbox/report';
import { folderObjects } from '../../../../../lib/local/inbox-folder';
import { putVendor } from '../../../../../lib/ops/vendors';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { gzipMembers } from '../../../../../testkit/gzip-bomb';
import { runBombChild } from '../../../../../testkit/inbox-bomb-child';
import { CLOCK, vacancyRecord } from '../../../../../testkit/vacancies';

/** Limits small enough for a fuzzed file to pass them now and then. */
const LIMITS: ImportLimits = { records: 40, lineBytes: 4 * 1024, fileBytes: 64 * 1024, lines: 1_000 };

let tables: TestTables;
let folder: string;

beforeAll(async () => {
  tables = await createTestTables();
  folder = await mkdtemp(join(tmpdir(), 'hostile-fuzz-'));
  await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme' });
});
afterAll(async () => {
  await tables.drop();
  await rm(folder, { recursive: true, force: true });
});

/** Records as an export would write them: valid ones, with any text in their titles, and broken ones. */
const records = fc.array(
  fc.oneof(
    fc
      .record({
        id: fc.integer({ min: 1, max: 5_000 }),
        title: fc.string({ unit: 'grapheme', maxLength: 40 }),
      })
      .map(({ id, title }) =>
        JSON.stringify(vacancyRecord({ id, vendor_id: 'acme', title: title.trim() === '' ? 'x' : title })),
      ),
    fc.json({ maxDepth: 3 }),
    fc.string({ unit: 'binary', maxLength: 80 }),
  ),
  { maxLength: 50 },
);
const text = records.map((lines) => lines.join('\n'));
const concat = (...parts: Uint8Array[]) => Buffer.concat(parts);

/** A hostile file: its name under incoming/ (which says whether it is gzip) and its bytes. */
const hostileFile: fc.Arbitrary<{ name: string; bytes: Uint8Array }> = fc.oneof(
  fc.uint8Array({ maxLength: 4_000 }).map((bytes) => ({ name: 'random.ndjson', bytes })),
  fc.uint8Array({ maxLength: 4_000 }).map((bytes) => ({ name: 'random.ndjson.gz', bytes })),
  fc.tuple(text, fc.double({ min: 0, max: 1, noNaN: true })).map(([content, cut]) => {
    const gzip = gzipSync(content);
    return { name: 'truncated.ndjson.gz', bytes: gzip.subarray(0, Math.floor(gzip.length * cut)) };
  }),
  text.map((content) => ({ name: 'nested.ndjson.gz', bytes: gzipSync(gzipSync(content)) })),
  text.map((content) => ({ name: 'array.json', bytes: Buffer.from(`[${content.split('\n').join(',\n')}]`) })),
  fc
    .constantFrom('{}\n', '\n', `${' '.repeat(200)}\n`, 'x'.repeat(1_000), '[[[[[[[[[[', '{"a":[{"a":[')
    .map((unit) => ({
      name: 'bomb.ndjson.gz',
      bytes: concat(...gzipMembers({ unit, bytes: 256 * 1024 })),
    })),
  fc.tuple(text, fc.integer({ min: 4 * 1024, max: 20 * 1024 })).map(([content, length]) => ({
    name: 'huge-line.ndjson',
    bytes: Buffer.from(`${content}\n{"title":"${'y'.repeat(length)}"}\n${content}`),
  })),
  text.map((content) => ({
    name: 'utf16le.ndjson',
    bytes: concat(Buffer.from([0xff, 0xfe]), Buffer.from(content, 'utf16le')),
  })),
  text.map((content) => ({
    name: 'utf16be.ndjson',
    bytes: concat(Buffer.from([0xfe, 0xff]), Buffer.from(content, 'utf16le').swap16()),
  })),
  text.map((content) => ({ name: 'latin1.ndjson', bytes: Buffer.from(content, 'latin1') })),
  fc
    .tuple(text, fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 8 }))
    .map(([content, bad]) => ({
      name: 'invalid-utf8.ndjson',
      bytes: concat(
        Buffer.from(content.slice(0, content.length / 2)),
        Buffer.from(bad),
        Buffer.from(content),
      ),
    })),
);

describe('a hostile file in the inbox', () => {
  it('never escapes the error boundary: every file ends in done/ or failed/, with its report', async () => {
    let runs = 0;
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(hostileFile, async ({ name, bytes }) => {
        runs += 1;
        const path = `${runs}/${name}`;
        await mkdir(join(folder, 'incoming', `${runs}`), { recursive: true });
        await writeFile(join(folder, 'incoming', path), bytes);
        const outcome = await handleInboxKey(
          {
            objects: folderObjects(folder),
            client: tables.documentClient,
            tables: tables.names,
            clock: CLOCK,
            maxClosePercent: 20,
            limits: LIMITS,
            retryDelaysMs: [],
          },
          `incoming/${path}`,
        );
        const report = JSON.parse(
          await readFile(join(folder, 'reports', `${path}.json`), 'utf8'),
        ) as FileReport;
        expect(outcome).toEqual({ handled: report });
        expect(['done', 'rejected', 'failed']).toContain(report.outcome);
        expect(await readdir(join(folder, outcomeFolder(report.outcome), `${runs}`))).toEqual([name]);
        expect(await readdir(join(folder, 'incoming', `${runs}`))).toEqual([]);
        if (report.outcome !== 'failed')
          expect(report.read).toBe(report.written + report.unchanged + report.rejected);
        else expect(report.reason).toMatch(/^[^\n]+$/);
        const kind = `${name} → ${report.outcome}`;
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
      }),
      { numRuns: Number(process.env.HOSTILE_FILE_RUNS ?? 150), endOnFailure: true },
    );
    // Both ends were reached: the fuzzing is not all refusals.
    const ends = new Set([...outcomes.keys()].map((kind) => kind.split(' → ')[1]));
    expect([...ends]).toEqual(expect.arrayContaining(['done', 'failed']));
    process.stdout.write(
      `${runs} hostile files: ${[...outcomes]
        .sort()
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ')}\n`,
    );
  }, 120_000);
});

describe('a file read as it arrives', () => {
  /** What reading gives: the records, or the one line of a refusal. */
  async function read(chunks: readonly Uint8Array[], compressed: boolean) {
    const records: SourceRecord[] = [];
    try {
      for await (const record of readImportFile(chunks, { compressed, limits: LIMITS })) records.push(record);
      return { records };
    } catch (error) {
      if (error instanceof ImportFileError) return { refused: error.message };
      throw error;
    }
  }

  it('reads the same records however its bytes are cut into chunks, and gzip the same as plain', async () => {
    const file = fc.oneof(
      text.map((content) => `\uFEFF${content}`),
      text.map((content) => `[${content.split('\n').join(',\r\n')}]`),
      text,
    );
    await fc.assert(
      fc.asyncProperty(file, fc.array(fc.nat(), { maxLength: 20 }), async (content, cuts) => {
        const bytes = Buffer.from(content);
        let whole: { records: SourceRecord[] } | { refused: string };
        try {
          whole = { records: parseImportFile(bytes, LIMITS) };
        } catch (error) {
          if (!(error instanceof ImportFileError)) throw error;
          whole = { refused: error.message };
        }
        const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length));
        expect(await read(chunks, false)).toEqual(whole);
        expect(await read([gzipSync(bytes)], true)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a gzip bomb of more than 1 GiB', () => {
  it('is refused as it expands, in a process whose memory stays under 300 MB', async () => {
    const run = await runBombChild(
      join(folder, 'bomb'),
      // Lines of spaces: no record, no long line, fewer lines than a file may hold — only the size of the file stops it.
      { unit: `${' '.repeat(2_047)}\n`, bytes: 1.25 * 1024 ** 3 },
      128,
    );
    expect(run.bombBytes).toBeLessThan(4 * 1024 * 1024);
    expect(run.report).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(
        /^the file is larger than 1,073,741,824 bytes \(1 GiB\) once decompressed, the most a file may hold: the limit was reached at byte 1073741825 \(line 524289\)/,
      ),
    });
    expect(run.maxRssBytes).toBeLessThan(300 * 1024 * 1024);
    process.stdout.write(
      `A ${run.bombBytes}-byte bomb refused in ${run.seconds} s, peak memory ${Math.round(run.maxRssBytes / 1024 ** 2)} MB\n`,
    );
  }, 180_000);
});
