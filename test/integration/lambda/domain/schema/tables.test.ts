import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dayNumber, expiryShard, orderKey } from '../../../../../lambda/domain/schema/active-index';
import { ACTIVE_INDEX, CHANGE_INDEX, EXPIRY_INDEX, ITEM } from '../../../../../lambda/domain/schema/tables';
import { toTombstone, toVacancyItem } from '../../../../../lambda/domain/schema/vacancy-item';
import { createTestTables, type TestTables, vendorEntries } from '../../../../../testkit/dynamodb';
import { fixtureVacancy, vacancyRecord } from '../../../../../testkit/vacancies';

describe('the DynamoDB engine with the service tables', () => {
  let tables: TestTables;
  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => tables.drop());

  const put = (Item: Record<string, unknown>) =>
    tables.documentClient.send(new PutCommand({ TableName: tables.names.vacancies, Item }));
  const activeIds = (vendorId: string) => vendorEntries(tables, ACTIVE_INDEX, vendorId, { descending: true });

  it('keeps items without an order key out of the sparse active index, and projects only the filters', async () => {
    const at = (seconds: number) => new Date(seconds * 1000);
    const active = (id: number, second: number, type: number) => ({
      id,
      [ITEM.vendor]: 'beta',
      status: 'active',
      title: 'x',
      [ITEM.order]: orderKey(at(second), id),
      [ITEM.type]: type,
    });
    await put(active(1, 5, 1));
    await put({ id: 2, [ITEM.vendor]: 'beta', status: 'inactive', title: 'y' });
    await put(active(3, 9, 2));
    expect(await activeIds('beta')).toEqual([
      { id: 3, [ITEM.vendor]: 'beta', [ITEM.order]: orderKey(at(9), 3), [ITEM.type]: 2 },
      { id: 1, [ITEM.vendor]: 'beta', [ITEM.order]: orderKey(at(5), 1), [ITEM.type]: 1 },
    ]);
  });

  it('keeps every item, a tombstone too, in the change index, oldest change first, with its status only', async () => {
    const vendor = 'delta';
    const items = [
      toVacancyItem(fixtureVacancy(vacancyRecord({ id: 301, vendor_id: vendor })), 2_000),
      toTombstone(302, vendor, 1_000),
      toVacancyItem(fixtureVacancy(vacancyRecord({ id: 303, vendor_id: vendor, status: 'draft' })), 2_000),
    ];
    await Promise.all(items.map((item) => put(item as unknown as Record<string, unknown>)));
    const entries = await vendorEntries(tables, CHANGE_INDEX, vendor);
    expect(entries.map((entry) => [entry.id, entry.status, Object.keys(entry).sort()])).toEqual([
      [302, 'deleted', ['c', 'id', 'status', 'v']],
      [301, 'active', ['c', 'id', 'status', 'v']],
      [303, 'draft', ['c', 'id', 'status', 'v']],
    ]);
  });

  it('keeps only active items in the expiry index, by shard and deadline day, keys only', async () => {
    const items = [
      toVacancyItem(fixtureVacancy(vacancyRecord({ id: 416, deadline: '2030-01-02' })), 1),
      toVacancyItem(fixtureVacancy(vacancyRecord({ id: 432, deadline: '2030-01-01' })), 1),
      toVacancyItem(fixtureVacancy(vacancyRecord({ id: 448, deadline: '2030-01-01', status: 'closed' })), 1),
    ];
    await Promise.all(items.map((item) => put(item as unknown as Record<string, unknown>)));
    const { Items = [] } = await tables.documentClient.send(
      new QueryCommand({
        TableName: tables.names.vacancies,
        IndexName: EXPIRY_INDEX.name,
        KeyConditionExpression: '#e = :shard AND #d < :day',
        ExpressionAttributeNames: { '#e': EXPIRY_INDEX.partitionKey, '#d': EXPIRY_INDEX.sortKey },
        ExpressionAttributeValues: { ':shard': expiryShard(416), ':day': dayNumber('2030-01-03') },
      }),
    );
    expect(Items.filter((entry) => entry.id >= 400)).toEqual([
      { id: 432, e: 0, d: dayNumber('2030-01-01') },
      { id: 416, e: 0, d: dayNumber('2030-01-02') },
    ]);
  });

  it('orders binary sort keys byte by byte, unsigned: the order key reads newest first', async () => {
    const keys = [
      orderKey(new Date('1970-01-01T00:00:00Z'), 2 ** 40),
      orderKey(new Date('1970-01-01T00:00:01Z'), 1),
      orderKey(new Date('2038-01-19T03:14:08Z'), 7), // past 2^31 seconds: the high bit of a 32-bit word
      orderKey(new Date('2026-06-01T00:00:00Z'), 255),
      orderKey(new Date('2026-06-01T00:00:00Z'), 256),
    ];
    await Promise.all(keys.map((key, i) => put({ id: 100 + i, [ITEM.vendor]: 'gamma', [ITEM.order]: key })));
    expect((await activeIds('gamma')).map((item) => item.id)).toEqual([102, 104, 103, 101, 100]);
  });
});
