import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createListingHandler } from '../../lambda/vacancies/listing-handler';
import { createVacancyRepository } from '../../lambda/vacancies/repository';
import type { ListingResponse } from '../../lambda/vacancies/types';
import { importVacancies, parseImportFile } from '../../lib/ops/import';
import { deleteVacancy, setVacancyStatus } from '../../lib/ops/vacancies';
import { createTestTables, type TestTables } from '../support/dynamodb';
import { listingEvent } from '../support/events';
import { lambdaContext, silentLogger } from '../support/lambda';
import { TIME_ZONE, vacancyRecord } from '../support/vacancies';

const line = (overrides: Record<string, unknown>) =>
  JSON.stringify(vacancyRecord({ vendor_id: 'acme', ...overrides }));

describe('parseImportFile', () => {
  it('reads NDJSON line by line, skipping blank lines and reporting what is not JSON', () => {
    expect(parseImportFile('{"a":1}\n\n  \nnope\n{"b":2}\n')).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, syntaxError: expect.stringMatching(/^not valid JSON/) },
      { line: 5, value: { b: 2 } },
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

  it('refuses an array that is not valid JSON as a whole', () => {
    expect(() => parseImportFile('[{"a":1},')).toThrow(/not a valid JSON array/);
  });
});

describe('vacancy import on the embedded DynamoDB', () => {
  let tables: TestTables;
  let list: (vendorId: string, query?: string) => Promise<number[]>;

  beforeAll(async () => {
    tables = await createTestTables();
    const handler = createListingHandler({
      repository: createVacancyRepository(tables.documentClient, { tableName: tables.names.vacancies }),
      settings: { defaultLocale: 'az', timeZone: TIME_ZONE, defaultPerPage: 100 },
      logger: silentLogger(),
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

  const file = [
    line({ id: 1, created_at: '2026-03-01 10:00:00' }),
    line({ id: 2, type: 9 }),
    '{ broken',
    line({ id: 3, created_at: '2026-03-02 10:00:00', status: 'draft' }),
    line({ id: 4, created_at: '2026-03-03 10:00:00', salary_type: 'fixed' }),
    line({ id: 1, title: 'Duplicate id' }),
    line({ id: 5, created_at: '2026-03-04 10:00:00' }),
  ].join('\n');
  const run = (text: string, dryRun = false) =>
    importVacancies(tables.documentClient, tables.names, parseImportFile(text), {
      timeZone: TIME_ZONE,
      dryRun,
    });

  it('writes nothing on a dry run, but reports what it would do', async () => {
    const report = await run(file, true);
    expect(report).toMatchObject({ imported: 3, unchanged: 0, dryRun: true });
    expect(await list('acme')).toEqual([]);
  });

  it('imports the valid records and reports each invalid one with its line and reasons', async () => {
    const report = await run(file);
    expect(report.imported).toBe(3);
    expect(report.unchanged).toBe(0);
    expect(report.rejected).toEqual([
      { line: 2, reasons: ['type must be an integer from 1 to 4'] },
      { line: 3, reasons: [expect.stringMatching(/^not valid JSON/)] },
      {
        line: 5,
        reasons: ['a fixed salary needs salary', 'a fixed salary must have salary_min and salary_max null'],
      },
      { line: 6, reasons: ['id 1 is already given on line 1'] },
    ]);
    // The draft (3) is stored but not listed; the rejected ones (2, 4) are not stored at all.
    expect(await list('acme')).toEqual([5, 1]);
    for (const id of [2, 4]) {
      const { Item } = await tables.documentClient.send(
        new GetCommand({ TableName: tables.names.vacancies, Key: { vendorId: 'acme', id } }),
      );
      expect(Item).toBeUndefined();
    }
  });

  it('is idempotent: importing the same file again changes nothing', async () => {
    const report = await run(file);
    expect(report).toMatchObject({ imported: 0, unchanged: 3 });
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
  });

  it('takes a vacancy out of the listing when its status changes, and back in when active again', async () => {
    await setVacancyStatus(tables.documentClient, tables.names.vacancies, 5, 'closed');
    expect(await list('acme')).toEqual([1]);
    await setVacancyStatus(tables.documentClient, tables.names.vacancies, 3, 'active', 'acme');
    expect(await list('acme')).toEqual([3, 1]);
    expect(
      await setVacancyStatus(tables.documentClient, tables.names.vacancies, 999, 'active'),
    ).toBeUndefined();
  });

  it('deletes a vacancy', async () => {
    expect(await deleteVacancy(tables.documentClient, tables.names.vacancies, 3)).toMatchObject({
      id: 3,
      vendorId: 'acme',
    });
    expect(await list('acme')).toEqual([1]);
    expect(await deleteVacancy(tables.documentClient, tables.names.vacancies, 3)).toBeUndefined();
  });
});
