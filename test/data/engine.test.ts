import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { orderKey } from '../../lambda/schema/active-index';
import { ACTIVE_INDEX } from '../../lambda/schema/tables';
import { createTestTables, type TestTables } from '../support/dynamodb';

const A = ACTIVE_INDEX.attributes;

describe('the DynamoDB engine with the service tables', () => {
  let tables: TestTables;
  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => tables.drop());

  const put = (Item: Record<string, unknown>) =>
    tables.documentClient.send(new PutCommand({ TableName: tables.names.vacancies, Item }));
  const activeIds = async (vendorId: string) => {
    const { Items = [] } = await tables.documentClient.send(
      new QueryCommand({
        TableName: tables.names.vacancies,
        IndexName: ACTIVE_INDEX.name,
        KeyConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': A.vendorId },
        ExpressionAttributeValues: { ':v': vendorId },
        ScanIndexForward: false,
      }),
    );
    return Items;
  };

  it('keeps items without the index attributes out of the sparse active index, and projects only the filters', async () => {
    const at = (seconds: number) => new Date(seconds * 1000);
    await put({
      id: 1,
      vendorId: 'beta',
      status: 'active',
      title: 'x',
      [A.vendorId]: 'beta',
      [A.order]: orderKey(at(5), 1),
      [A.type]: 1,
    });
    await put({ id: 2, vendorId: 'beta', status: 'inactive', title: 'y' });
    await put({
      id: 3,
      vendorId: 'beta',
      status: 'active',
      title: 'z',
      [A.vendorId]: 'beta',
      [A.order]: orderKey(at(9), 3),
      [A.type]: 2,
    });
    expect(await activeIds('beta')).toEqual([
      { id: 3, [A.vendorId]: 'beta', [A.order]: orderKey(at(9), 3), [A.type]: 2 },
      { id: 1, [A.vendorId]: 'beta', [A.order]: orderKey(at(5), 1), [A.type]: 1 },
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
    await Promise.all(
      keys.map((key, i) => put({ id: 100 + i, vendorId: 'gamma', [A.vendorId]: 'gamma', [A.order]: key })),
    );
    expect((await activeIds('gamma')).map((item) => item.id)).toEqual([102, 104, 103, 101, 100]);
  });
});
