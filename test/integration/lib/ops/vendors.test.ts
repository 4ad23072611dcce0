/**
 * The ops path reads a vendor one way: strongly consistent (`getVendorRecord`), so that a vendor created a moment
 * ago is found by the next command — never with the authorizer's eventually consistent read, which may miss it.
 */
import { BatchGetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { writeVacancies } from '../../../../lambda/domain/import/import';
import { vendorItemKey } from '../../../../lambda/domain/schema/vendors';
import { createDynamoDBClient } from '../../../../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../../../../lambda/platform/dynamodb/document-client';
import { issueApiKey } from '../../../../lib/ops/api-keys';
import { fixtureVacancy, vacancyRecord } from '../../../../testkit/vacancies';

const client = createDocumentClient(createDynamoDBClient({ endpoint: 'http://127.0.0.1:9' }));
const dynamodb = mockClient(client);
const TABLES = { vacancies: 'Vacancies', vendors: 'Vendors' };

/** Every read of a vendor item the commands made. */
const vendorReads = () =>
  dynamodb
    .commandCalls(GetCommand)
    .map((call) => call.args[0].input)
    .filter((input) => String((input.Key as { pk?: string }).pk).startsWith('vendor#'));

describe('reads of a vendor on the ops path', () => {
  afterEach(() => {
    dynamodb.reset();
  });

  it('are strongly consistent, in the import and in key issuing alike', async () => {
    dynamodb
      .on(GetCommand, { Key: vendorItemKey('acme') })
      .resolves({ Item: { ...vendorItemKey('acme'), vendorId: 'acme', company: 'Acme', status: 'active' } });
    dynamodb.on(BatchGetItemCommand).resolves({ Responses: {} });
    dynamodb.on(PutItemCommand).resolves({});
    dynamodb.on(PutCommand).resolves({});
    // The summary's lease, taken and let go.
    dynamodb.on(UpdateCommand).resolves({});

    const report = await writeVacancies(client, TABLES, [
      { line: 1, vacancy: fixtureVacancy(vacancyRecord()) },
    ]);
    expect(report.imported).toBe(1);
    expect(await issueApiKey(client, TABLES.vendors, 'acme', 'career page')).toMatchObject({
      vendorId: 'acme',
    });

    expect(vendorReads()).toHaveLength(2);
    for (const read of vendorReads()) expect(read.ConsistentRead).toBe(true);
  });
});
