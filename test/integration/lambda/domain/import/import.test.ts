import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IMPORT_LIMITS, parseImportFile } from '../../../../../lambda/domain/import/file';
import { importVacancies, writeVacancies } from '../../../../../lambda/domain/import/import';
import { NotAnIntegerLiteral } from '../../../../../lambda/domain/import/record';
import { ACTIVE_INDEX } from '../../../../../lambda/domain/schema/tables';
import type { ListingResponse } from '../../../../../lambda/functions/vacancies/bodies';
import { deleteVacancy, setVacancyStatus } from '../../../../../lib/ops/vacancies';
import { putVendor } from '../../../../../lib/ops/vendors';
import {
  createTestTables,
  type TestTables,
  testEndpoint,
  vendorEntries,
} from '../../../../../testkit/dynamodb';
import { listingEvent } from '../../../../../testkit/events';
import { type FaultKind, type FaultProxy, startFaultProxy } from '../../../../../testkit/fault-proxy';
import { lambdaContext } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';
import { CLOCK, fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

const line = (overrides: Record<string, unknown>) =>
  JSON.stringify(vacancyRecord({ vendor_id: 'acme', ...overrides }));

describe('parseImportFile', () => {
  it('reads NDJSON line by line, skipping blank lines and reporting what is not JSON', () => {
    expect(parseImportFile('{"a":1}\n\n  \nnope\n{"b":2}\n')).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, unreadable: expect.stringMatching(/^not valid JSON/) },
      { line: 5, value: { b: 2 } },
    ]);
  });

  it('ignores a byte order mark and accepts CRLF line ends', () => {
    expect(parseImportFile('\uFEFF{"a":1}\r\n{"b":2}\r\n')).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: { b: 2 } },
    ]);
    expect(parseImportFile('\uFEFF[\r\n{"a":1},\r\n{"b":2}\r\n]')).toEqual([
      { line: 2, value: { a: 1 } },
      { line: 3, value: { b: 2 } },
    ]);
  });

  it('reads a JSON array, giving each record the line it starts on', () => {
    const text = '[\n  {"a": "x,]\\"{"},\n\n  {\n    "b": [1, {"c": 2}]\n  },\n  3\n]';
    expect(parseImportFile(text)).toEqual([
      { line: 2, value: { a: 'x,]"{' } },
      { line: 4, value: { b: [1, { c: 2 }] } },
      { line: 7, value: 3 },
    ]);
    expect(parseImportFile('[{"a":1}, {"b":2}]').map((record) => record.line)).toEqual([1, 1]);
  });

  it("counts every line against the limit of lines: blank ones, an unterminated last one, an array's", () => {
    const limits = { ...IMPORT_LIMITS, lines: 3 };
    expect(parseImportFile('{"a":1}\n\n\n', limits)).toHaveLength(1);
    const over =
      /^the file has more than 3 lines \(blank lines count too\), the most a file may hold: the limit was reached at line 4; split it$/;
    expect(() => parseImportFile('\n\n\n\n', limits)).toThrow(over);
    expect(() => parseImportFile('{"a":1}\n\n\n{"b":2}', limits)).toThrow(over);
    expect(() => parseImportFile('[\n{"a":1},\n\n{"b":2}]', limits)).toThrow(over);
  });

  it('refuses an array that is not valid JSON as a whole', () => {
    expect(() => parseImportFile('[{"a":1},')).toThrow(/not a valid JSON array/);
  });

  /** A file's bytes: text, with raw bytes put in place of each `\u0000` marker. */
  const bytes = (text: string, ...raw: number[][]) =>
    Buffer.concat(
      text.split('\u0000').flatMap((part, i) => [Buffer.from(part, 'utf8'), Buffer.from(raw[i] ?? [])]),
    );
  const NOT_UTF8 = 'not valid UTF-8 (bytes that are not UTF-8 text)';

  it.each([
    ['a byte that is never UTF-8', [0xff]],
    ['a continuation byte alone', [0x80]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['a surrogate encoded as UTF-8', [0xed, 0xa0, 0x80]],
    ['a sequence cut short', [0xe2, 0x82]],
  ])('refuses the NDJSON line with %s, and reads every other line', (_case, raw) => {
    expect(parseImportFile(bytes('{"a":"x"}\n{"b":"\u0000"}\n{"c":"\u00e9"}\n', raw))).toEqual([
      { line: 1, value: { a: 'x' } },
      { line: 2, unreadable: NOT_UTF8 },
      { line: 3, value: { c: 'é' } },
    ]);
  });

  it('refuses the array element on a line that is not UTF-8, and reads the others', () => {
    const file = bytes('[\n{"a":1},\n{"b":\n  "\u0000"},\n{"c":3}\n]', [0xff]);
    expect(parseImportFile(file)).toEqual([
      { line: 2, value: { a: 1 } },
      { line: 3, unreadable: NOT_UTF8 },
      { line: 5, value: { c: 3 } },
    ]);
  });

  it('keeps a number that is an integer only once rounded apart from that integer', () => {
    const [record] = parseImportFile(
      '{"a":7,"b":1.0,"c":1e3,"d":0.9999999999999999999,"e":9007199254740990.6,"f":1.5,"g":-0}\n',
    );
    expect(record?.value).toEqual({
      a: 7,
      b: new NotAnIntegerLiteral('1.0'),
      c: new NotAnIntegerLiteral('1e3'),
      d: new NotAnIntegerLiteral('0.9999999999999999999'),
      e: new NotAnIntegerLiteral('9007199254740990.6'),
      f: 1.5,
      g: -0,
    });
  });
});

describe('vacancy import on the DynamoDB engine', () => {
  let tables: TestTables;
  let list: (vendorId: string, query?: string) => Promise<number[]>;
  const run = (text: string, dryRun = false) =>
    importVacancies(tables.documentClient, tables.names, parseImportFile(text), { clock: CLOCK, dryRun });
  const stored = async (id: number) =>
    (await tables.documentClient.send(new GetCommand({ TableName: tables.names.vacancies, Key: { id } })))
      .Item;

  beforeAll(async () => {
    tables = await createTestTables();
    for (const vendorId of ['acme', 'globex', 'initech']) {
      await putVendor(tables.documentClient, tables.names.vendors, { vendorId, company: vendorId });
    }
    const handler = testListingHandler(tables, {
      settings: { defaultLocale: 'az', clock: CLOCK, defaultPerPage: 100 },
    });
    list = async (vendorId, query) => {
      const response = await handler(
        listingEvent({ query, authorizer: { vendorId, company: vendorId } }),
        lambdaContext('listing'),
      );
      return (JSON.parse(response.body) as ListingResponse).data.map((vacancy) => vacancy.id);
    };
  });
  afterAll(async () => tables.drop());

  it('without the service zone, stores as expired an active record whose deadline passed in every zone, and no other', async () => {
    const now = Date.UTC(2026, 10, 25, 12);
    const report = await importVacancies(
      tables.documentClient,
      tables.names,
      parseImportFile(
        [
          line({ id: 60, deadline: '2026-11-23', created_at: '2026-01-01T00:00:00Z' }),
          line({ id: 61, deadline: '2026-11-24', created_at: '2026-01-01T00:00:00Z' }),
        ].join('\n'),
      ),
      { now: () => now },
    );
    expect(report).toMatchObject({ imported: 2, rejected: [] });
    // 2026-11-23 has passed in every zone; 2026-11-24 is left to the expiry job (the rule keeps a day for zones
    // behind UTC, where it may still be the 24th at another hour).
    expect([(await stored(60))?.status, (await stored(61))?.status]).toEqual(['expired', 'active']);
  });

  const file = [
    line({ id: 1, created_at: '2026-03-01 10:00:00' }),
    line({ id: 2, type: 9 }),
    '{ broken',
    line({ id: 3, created_at: '2026-03-02 10:00:00', status: 'draft' }),
    line({ id: 4, created_at: '2026-03-03 10:00:00', salary_type: 'fixed' }),
    line({ id: 1, title: 'Duplicate id' }),
    line({ id: 5, created_at: '2026-03-04 10:00:00' }),
  ].join('\n');

  it('warns of each listable vacancy without pay in an EU deployment, never refusing it; nowhere else', async () => {
    const negotiable = {
      vendor_id: 'initech',
      salary_type: 'negotiable',
      salary_min: null,
      salary_max: null,
    };
    const text = [
      line({ id: 70, ...negotiable }),
      line({ id: 71, vendor_id: 'initech' }),
      line({ id: 72, ...negotiable, status: 'draft' }),
      line({ id: 73, ...negotiable, deadline: '2020-01-01' }),
      line({ id: 74, ...negotiable, type: 9 }),
      line({ id: 75, ...negotiable, created_at: '2026-03-05 10:00:00' }),
    ].join('\n');
    const options = { clock: CLOCK, jobCountry: 'DE' };
    const pay = 'pay not stated: EU Directive 2023/970 Art. 5';
    const dry = await importVacancies(tables.documentClient, tables.names, parseImportFile(text), {
      ...options,
      dryRun: true,
    });
    expect(dry.warnings).toEqual([
      { line: 1, reason: pay },
      { line: 6, reason: pay },
    ]);
    const report = await importVacancies(tables.documentClient, tables.names, parseImportFile(text), options);
    expect(report).toMatchObject({ imported: 5, rejected: [{ line: 5 }] });
    expect(report.warnings.map(({ line }) => line)).toEqual([1, 6]);
    // Unchanged the second time, and still without pay: still warned of.
    const again = await importVacancies(tables.documentClient, tables.names, parseImportFile(text), options);
    expect(again).toMatchObject({ imported: 0, unchanged: 5 });
    expect(again.warnings.map(({ line }) => line)).toEqual([1, 6]);
    for (const jobCountry of ['AZ', 'GB', undefined]) {
      const outside = await importVacancies(tables.documentClient, tables.names, parseImportFile(text), {
        clock: CLOCK,
        jobCountry,
      });
      expect(outside.warnings).toEqual([]);
    }
  });

  it('writes nothing on a dry run, but reports what it would do', async () => {
    const report = await run(file, true);
    expect(report).toMatchObject({ imported: 3, unchanged: 0, dryRun: true, notWritten: [] });
    expect(await list('acme')).toEqual([]);
  });

  it('imports the valid records and reports each invalid one with its line and reasons', async () => {
    const report = await run(file);
    expect(report).toMatchObject({ imported: 3, unchanged: 0, notWritten: [] });
    expect(report.interrupted).toBeUndefined();
    expect(report.rejected).toEqual([
      { line: 2, reasons: ['type must be one of 1, 2, 3, 4'] },
      { line: 3, reasons: [expect.stringMatching(/^not valid JSON/)] },
      {
        line: 5,
        reasons: ['a fixed salary needs salary', 'a fixed salary must have salary_min and salary_max null'],
      },
      { line: 6, reasons: ['id 1 is already given on line 1'] },
    ]);
    // The draft (3) is stored but not listed; the rejected ones (2, 4) are not stored at all.
    expect(await list('acme')).toEqual([5, 1]);
    expect(await stored(3)).toMatchObject({ status: 'draft', v: 'acme' });
    for (const id of [2, 4]) expect(await stored(id)).toBeUndefined();
  });

  it('is idempotent: importing the same file again writes nothing', async () => {
    const report = await run(file);
    expect(report).toMatchObject({ imported: 0, unchanged: 3, writeUnits: 0 });
    expect(await list('acme')).toEqual([5, 1]);
  });

  it('replaces a record re-imported with the same id, and refuses an id that belongs to another vendor', async () => {
    const report = await run(
      [
        line({ id: 5, title: 'Renamed', created_at: '2026-03-04 10:00:00' }),
        JSON.stringify(vacancyRecord({ id: 1, vendor_id: 'globex' })),
      ].join('\n'),
    );
    expect(report.imported).toBe(1);
    expect(report.rejected).toEqual([{ line: 2, reasons: ['id 1 belongs to vendor acme'] }]);
    expect(await list('globex')).toEqual([]);
    expect(await stored(5)).toMatchObject({ title: 'Renamed' });
  });

  it('refuses records of a vendor that does not exist, reading each vendor once', async () => {
    const report = await run(
      [
        line({ id: 20, vendor_id: 'pasha-bnak' }),
        line({ id: 21, vendor_id: 'acme', created_at: '2026-03-05 10:00:00' }),
        line({ id: 22, vendor_id: 'pasha-bnak' }),
      ].join('\n'),
    );
    expect(report.imported).toBe(1);
    expect(report.rejected).toEqual([
      { line: 1, reasons: ['vendor pasha-bnak does not exist'] },
      { line: 3, reasons: ['vendor pasha-bnak does not exist'] },
    ]);
    for (const id of [20, 22]) expect(await stored(id)).toBeUndefined();
  });

  it('refuses an oversized record between valid ones, writing every valid one and nothing of it', async () => {
    const report = await run(
      [
        line({ id: 30, created_at: '2026-04-01 10:00:00' }),
        line({ id: 31, description: 'x'.repeat(450_000) }),
        line({ id: 32, created_at: '2026-04-02 10:00:00' }),
      ].join('\n'),
    );
    expect(report).toMatchObject({ imported: 2, notWritten: [] });
    expect(report.rejected).toEqual([
      {
        line: 2,
        reasons: [
          'description must be at most 8000 characters',
          'description must be at most 16000 bytes of UTF-8',
        ],
      },
    ]);
    expect(await stored(31)).toBeUndefined();
    expect(await stored(30)).toBeDefined();
    expect(await stored(32)).toBeDefined();
  });

  it('refuses created_at before 1970, and one without an offset when the zone is unknown', async () => {
    const early = await run(line({ id: 40, created_at: '1969-07-20T20:17:40Z' }));
    expect(early.rejected).toEqual([
      { line: 1, reasons: ['created_at must not be before 1970-01-01T00:00:00Z'] },
    ]);
    const unknownZone = await importVacancies(
      tables.documentClient,
      tables.names,
      parseImportFile(
        [line({ id: 41 }), line({ id: 42, created_at: '2026-05-01T08:00:00+04:00' })].join('\n'),
      ),
      {},
    );
    expect(unknownZone.imported).toBe(1);
    expect(unknownZone.rejected).toEqual([
      { line: 1, reasons: [expect.stringMatching(/^created_at has no offset, .*--time-zone/)] },
    ]);
  });

  it('gives a contested new id to exactly one of two imports racing for it', async () => {
    for (let round = 0; round < 5; round += 1) {
      const id = 1_000 + round;
      const entry = (vendor: string) => ({
        line: 7,
        vacancy: fixtureVacancy(vacancyRecord({ id, vendor_id: vendor, title: `Won by ${vendor}` })),
      });
      // Both read "no such id" before either writes: only the conditional put can decide.
      const [acme, globex] = await Promise.all([
        writeVacancies(tables.documentClient, tables.names, [entry('acme')]),
        writeVacancies(tables.documentClient, tables.names, [entry('globex')]),
      ]);
      expect(acme.imported + globex.imported).toBe(1);
      const [winner, loser] = acme.imported === 1 ? ['acme', globex] : ['globex', acme];
      expect(loser.rejected).toEqual([{ line: 7, reasons: [`id ${id} belongs to vendor ${winner}`] }]);
      expect(await stored(id)).toMatchObject({ v: winner, title: `Won by ${winner}` });
    }
  });

  it('takes a vacancy out of the listing when its status changes, and back in when active again', async () => {
    const { documentClient, names } = tables;
    expect(await setVacancyStatus(documentClient, names, 5, 'closed')).toMatchObject({
      changed: { id: 5, v: 'acme', status: 'active' },
      now: { id: 5, v: 'acme', status: 'closed' },
    });
    expect(await list('acme')).not.toContain(5);
    expect(await setVacancyStatus(documentClient, names, 3, 'active', { vendorId: 'acme' })).toMatchObject({
      now: { id: 3, status: 'active' },
    });
    expect(await list('acme')).toContain(3);
    expect(await setVacancyStatus(documentClient, names, 3, 'active')).toMatchObject({
      unchanged: { id: 3, status: 'active' },
    });
    expect(await setVacancyStatus(documentClient, names, 999, 'active')).toEqual({ notFound: true });
    expect(await setVacancyStatus(documentClient, names, 3, 'closed', { vendorId: 'globex' })).toEqual({
      otherVendor: 'acme',
    });
    expect(await list('acme')).toContain(3);
  });

  it("deletes a vacancy, only the named vendor's when one is named, leaving its tombstone", async () => {
    const { documentClient, names } = tables;
    expect(await deleteVacancy(documentClient, names, 3, { vendorId: 'globex' })).toEqual({
      otherVendor: 'acme',
    });
    expect(await stored(3)).toMatchObject({ status: 'active' });
    expect(await deleteVacancy(documentClient, names, 3)).toMatchObject({
      changed: { id: 3, v: 'acme' },
      now: { id: 3, v: 'acme', status: 'deleted' },
    });
    expect(await list('acme')).not.toContain(3);
    expect(Object.keys((await stored(3)) ?? {}).sort()).toEqual([
      'c',
      'id',
      'status',
      'updated_at',
      'v',
      'w',
    ]);
    expect(await deleteVacancy(documentClient, names, 3)).toEqual({ notFound: true });
  });

  it('takes ids and other integers as written: a record whose integer is not written as one is refused, never rounded', async () => {
    const numbers = [
      `{${line({ id: 301 }).slice(1, -1).replace('"id":301', '"id":0.9999999999999999999')}}`,
      line({ id: 302 }).replace('"id":302', '"id":9007199254740990.6'),
      line({ id: 303 }).replace('"id":303', '"id":303.0'),
      line({ id: 304, salary_type: 'fixed', salary_min: null, salary_max: null, salary: 1 }).replace(
        '"salary":1',
        '"salary":1e3',
      ),
      line({ id: 305 }).replace('"type":1', '"type":1.0'),
      line({ id: 306 }),
    ].join('\n');
    const before = await stored(1);
    const report = await run(numbers);
    expect(report.rejected).toEqual([
      { line: 1, reasons: ['id must be written as an integer, not 0.9999999999999999999'] },
      { line: 2, reasons: ['id must be written as an integer, not 9007199254740990.6'] },
      { line: 3, reasons: ['id must be written as an integer, not 303.0'] },
      { line: 4, reasons: ['salary must be written as an integer, not 1e3'] },
      { line: 5, reasons: ['type must be written as an integer, not 1.0'] },
    ]);
    expect(report.imported).toBe(1);
    // Nothing was rounded into an id: 1 is as it was, 2^53 − 1 was never written.
    expect(await stored(1)).toEqual(before);
    for (const id of [9007199254740991, 303, 304, 305]) expect(await stored(id)).toBeUndefined();
    expect(await stored(306)).toMatchObject({ id: 306 });
  });

  it('refuses a line that is not UTF-8 with its number, imports the rest, and stores no replacement character', async () => {
    const file = Buffer.concat([
      Buffer.from(`${line({ id: 311 })}\n`),
      Buffer.from(`${line({ id: 312, title: 'Broken XX' })}\n`.replace('XX', '\u0000'), 'utf8').map((byte) =>
        byte === 0 ? 0xff : byte,
      ),
      Buffer.from(`${line({ id: 313 })}\n`),
    ]);
    const report = await importVacancies(tables.documentClient, tables.names, parseImportFile(file), {
      clock: CLOCK,
    });
    expect(report).toMatchObject({
      imported: 2,
      rejected: [{ line: 2, reasons: ['not valid UTF-8 (bytes that are not UTF-8 text)'] }],
    });
    expect(await stored(312)).toBeUndefined();
    for (const id of [311, 313]) expect(JSON.stringify(await stored(id))).not.toContain('\uFFFD');
  });
});

describe('an import interrupted by a failing database', () => {
  let proxy: FaultProxy;
  let tables: TestTables;
  const RECORDS = 40;
  const text = Array.from({ length: RECORDS }, (_, i) =>
    JSON.stringify(
      vacancyRecord({
        id: 500 + i,
        vendor_id: 'acme',
        created_at: `2026-02-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
      }),
    ),
  ).join('\n');

  beforeAll(async () => {
    proxy = await startFaultProxy(testEndpoint());
    // Two attempts a call: the SDK's own retry is exercised, and the test does not wait for eight.
    tables = await createTestTables({ connect: proxy.endpoint, maxAttempts: 2 });
    await putVendor(tables.documentClient, tables.names.vendors, { vendorId: 'acme', company: 'Acme' });
  });
  afterAll(async () => {
    await tables.drop();
    await proxy.stop();
  });

  it.each<[FaultKind, number]>([
    ['throttle', 10],
    ['fail', 25],
    ['drop', 5],
  ])(
    'stops on %s after %i writes, reports the lines not written, and a second run completes it',
    async (kind, after) => {
      const { documentClient, names } = tables;
      const sources = parseImportFile(text.replaceAll('"title":"Backend developer"', `"title":"${kind}"`));
      proxy.inject({ operation: 'PutItem', kind, after });
      const first = await importVacancies(documentClient, names, sources, { clock: CLOCK, concurrency: 4 });
      await proxy.clear();

      expect(first.interrupted).toMatch(/^DynamoDB failed \(\w+\); nothing more was written$/);
      expect(first.rejected).toEqual([]);
      expect(first.imported).toBeGreaterThanOrEqual(after);
      expect(first.imported).toBeLessThan(RECORDS);
      expect(first.imported + first.notWritten.length).toBe(RECORDS);
      // Every line is either written or reported as not written.
      const written = [];
      for (let i = 0; i < RECORDS; i += 1) {
        const { Item } = await documentClient.send(
          new GetCommand({ TableName: names.vacancies, Key: { id: 500 + i } }),
        );
        if (Item?.title === kind) written.push(i + 1);
      }
      expect(written.length).toBe(first.imported);
      for (const lineNumber of first.notWritten) expect(written).not.toContain(lineNumber);

      const second = await importVacancies(documentClient, names, sources, { clock: CLOCK });
      expect(second).toMatchObject({
        imported: first.notWritten.length,
        unchanged: first.imported,
        notWritten: [],
      });
      expect(second.interrupted).toBeUndefined();

      // Every record is there exactly once: one index entry per id.
      const entries = await vendorEntries({ documentClient, names }, ACTIVE_INDEX, 'acme');
      expect(entries.map((item) => item.id).sort()).toEqual(
        Array.from({ length: RECORDS }, (_, i) => 500 + i).sort(),
      );
    },
  );

  it('stops before writing anything when it cannot read what is stored, every line reported', async () => {
    proxy.inject({ operation: 'BatchGetItem', kind: 'fail' });
    const report = await importVacancies(tables.documentClient, tables.names, parseImportFile(text), {
      clock: CLOCK,
    });
    await proxy.clear();
    expect(report).toMatchObject({
      imported: 0,
      unchanged: 0,
      interrupted: expect.stringMatching(/^DynamoDB failed/),
    });
    expect(report.notWritten).toHaveLength(RECORDS);
  });

  it('stops cleanly when asked to (Ctrl-C): the writes under way finish, the rest is reported', async () => {
    const controller = new AbortController();
    const sources = parseImportFile(text.replaceAll('"title":"Backend developer"', '"title":"stopped"'));
    const report = await importVacancies(tables.documentClient, tables.names, sources, {
      clock: CLOCK,
      concurrency: 2,
      signal: controller.signal,
      onProgress: (done) => {
        if (done === 6) controller.abort();
      },
    });
    expect(report.interrupted).toBe('interrupted; nothing more was written');
    expect(report.imported).toBeGreaterThanOrEqual(6);
    expect(report.imported + report.notWritten.length).toBe(RECORDS);
  });
});
