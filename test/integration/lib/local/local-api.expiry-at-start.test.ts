/**
 * `npm start` runs the expiry job when it starts: a vacancy whose deadline passed while the server was stopped is
 * expired before the first request, as the deployed schedule would have done.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { toVacancyItem } from '../../../../lambda/domain/schema/vacancy-item';
import { createDynamoDBClient } from '../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../lambda/platform/dynamodb/document-client';
import { createTables, localTableNames } from '../../../../lib/create-tables';
import { type LocalApi, startLocalApi } from '../../../../lib/local/local-api';
import { putVendor } from '../../../../lib/ops/vendors';
import { testEndpoint } from '../../../../testkit/dynamodb';
import { CLOCK, fixtureVacancy, vacancyRecord } from '../../../../testkit/vacancies';

describe('npm start', () => {
  const prefix = `x${randomUUID().slice(0, 8)}-`;
  const tables = localTableNames(prefix);
  const client = createDocumentClient(createDynamoDBClient({ endpoint: testEndpoint() }));
  let api: LocalApi;
  const yesterday = new Date(`${CLOCK.today(new Date())}T00:00:00Z`);
  yesterday.setUTCDate(yesterday.getUTCDate() - 1);

  beforeAll(async () => {
    await createTables(createDynamoDBClient({ endpoint: testEndpoint() }), tables);
    await putVendor(client, tables.vendors, { vendorId: 'acme', company: 'Acme' });
    // Stored active, as it was before its deadline passed.
    for (const [id, deadline] of [
      [1, yesterday.toISOString().slice(0, 10)],
      [2, '2099-12-31'],
    ] as const) {
      await client.send(
        new PutCommand({
          TableName: tables.vacancies,
          Item: toVacancyItem(fixtureVacancy(vacancyRecord({ id, deadline })), Date.now() - 86_400_000),
        }),
      );
    }
    api = await startLocalApi({ port: 0, dynamodbEndpoint: testEndpoint(), tablePrefix: prefix });
  });
  afterAll(async () => {
    await api?.stop();
    client.destroy();
  });

  it('expires what passed its deadline before serving, and leaves the rest', async () => {
    const status = async (id: number) =>
      (await client.send(new GetCommand({ TableName: tables.vacancies, Key: { id }, ConsistentRead: true })))
        .Item?.status;
    expect(await status(1)).toBe('expired');
    expect(await status(2)).toBe('active');
  });
});
