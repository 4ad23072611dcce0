import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ACTIVE_INDEX_ATTRIBUTES as A, ACTIVE_INDEX_NAME } from '../../lib/tables';
import { createTestTables, type TestTables } from '../support/dynamodb';

describe('embedded DynamoDB with the service tables', () => {
  let tables: TestTables;
  beforeAll(async () => {
    tables = await createTestTables();
  });
  afterAll(async () => tables.drop());

  it('writes and reads a vacancy item by its key', async () => {
    const item = { vendorId: 'acme', id: 7, title: 'Backend developer' };
    await tables.documentClient.send(new PutCommand({ TableName: tables.names.vacancies, Item: item }));
    const { Item } = await tables.documentClient.send(
      new GetCommand({ TableName: tables.names.vacancies, Key: { vendorId: 'acme', id: 7 } }),
    );
    expect(Item).toEqual(item);
  });

  it('keeps items without the index attributes out of the sparse active index', async () => {
    const put = (Item: Record<string, unknown>) =>
      tables.documentClient.send(new PutCommand({ TableName: tables.names.vacancies, Item }));
    await put({
      vendorId: 'beta',
      id: 1,
      status: 'active',
      [A.vendorId]: 'beta',
      [A.order]: 'b',
      [A.type]: 1,
    });
    await put({ vendorId: 'beta', id: 2, status: 'inactive' });
    await put({
      vendorId: 'beta',
      id: 3,
      status: 'active',
      [A.vendorId]: 'beta',
      [A.order]: 'c',
      [A.type]: 2,
    });

    const { Items } = await tables.documentClient.send(
      new QueryCommand({
        TableName: tables.names.vacancies,
        IndexName: ACTIVE_INDEX_NAME,
        KeyConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': A.vendorId },
        ExpressionAttributeValues: { ':v': 'beta' },
        ScanIndexForward: false,
      }),
    );
    // Descending by the order key; the inactive item is not in the index at all; only projected attributes.
    expect(Items).toEqual([
      { vendorId: 'beta', id: 3, [A.vendorId]: 'beta', [A.order]: 'c', [A.type]: 2 },
      { vendorId: 'beta', id: 1, [A.vendorId]: 'beta', [A.order]: 'b', [A.type]: 1 },
    ]);
  });
});
