/**
 * An index that holds two entries of one item (the embedded engine killed between its index's write and its item's:
 * docs/design.md#a-kill-timeline) makes no page fail: the items of a page are read each once.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createVacancyRepository } from '../../../../../lambda/domain/reads/repository';
import { createTestTables, type TestTables } from '../../../../../testkit/dynamodb';
import { putVacancies, vacancyRecord } from '../../../../../testkit/vacancies';

describe('an index entry met twice', () => {
  let tables: TestTables;

  beforeAll(async () => {
    tables = await createTestTables();
    await putVacancies(tables.documentClient, tables.names.vacancies, [
      vacancyRecord({ id: 7, vendor_id: 'acme' }),
    ]);
  });
  afterAll(async () => tables?.drop());

  it('reads its item once, and shows it where each entry is', async () => {
    const repository = createVacancyRepository(tables.client, {
      tableName: tables.names.vacancies,
      vendorsTable: tables.names.vendors,
    });
    const read = await repository.readItems('acme', [7, 7]);
    expect(read.items.map((item) => item.id)).toEqual([7, 7]);
  });
});
