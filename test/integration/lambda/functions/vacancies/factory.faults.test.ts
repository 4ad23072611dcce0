/**
 * Faults a real engine cannot be made to produce on demand — throttling, partial BatchGetItem answers,
 * unexpected service errors — simulated with aws-sdk-client-mock on the DynamoDB client (DynamoDB's own attribute values in and out, as the
 * listing reads them: lambda/platform/dynamodb/read-client.ts).
 */

import {
  BatchGetItemCommand,
  type BatchGetItemCommandInput,
  GetItemCommand,
  ProvisionedThroughputExceededException,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { createDynamoDBClient } from '../../../../../lambda/platform/dynamodb/client';
import { zoneClock } from '../../../../../lambda/platform/time/zone-clock';
import { listingEvent } from '../../../../../testkit/events';
import { lambdaContext, testMetrics } from '../../../../../testkit/lambda';
import { testListingHandler } from '../../../../../testkit/listing';

const TABLE = 'Vacancies';
const client = createDynamoDBClient({ endpoint: 'http://127.0.0.1:9' });
const dynamodb = mockClient(client);
const sleeps: number[] = [];

const metrics = testMetrics('listing');
const handler = testListingHandler(
  { client, names: { vacancies: TABLE, vendors: 'Vendors' } },
  {
    repository: {
      batchGetRetry: { maxStalls: 2, baseDelayMs: 10, maxDelayMs: 100 },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
    settings: { clock: zoneClock('Asia/Baku') },
    metrics,
  },
);
const call = () => handler(listingEvent({ requestId: 'req-fault' }), lambdaContext('listing'));

/** Index entries (or keys) of these ids, as DynamoDB answers them. */
const entries = (...ids: number[]) => ids.map((id) => marshall({ id }));

const vacancy = (id: number, vendorId = 'acme') =>
  marshall({
    id,
    v: vendorId,
    title: `Job ${id}`,
    url: `https://example.com/${id}`,
    description: '',
    requirements: '',
    responsibilities: '',
    category: 'it',
    city: 'baku',
    type: 1,
    salary_type: 'negotiable',
    deadline: '2099-01-01',
    created_at: '2026-01-01T00:00:00Z',
  });

/** The body must not leak anything about the failure: only the generic envelope. */
function expectOpaque(body: string, message: string) {
  expect(JSON.parse(body)).toEqual({ status: 'error', message, request_id: 'req-fault' });
  expect(body).not.toMatch(/Exception|Vacancies|dynamodb|stack|at /i);
}

describe('listing faults', () => {
  beforeEach(() => {
    dynamodb.reset();
    sleeps.length = 0;
    // No summary: the listing counts on the index.
    dynamodb.on(GetItemCommand).resolves({});
  });

  it('answers 503 with Retry-After to throttling (what the SDK raises once its own retries are spent)', async () => {
    dynamodb.on(QueryCommand).rejects(
      new ProvisionedThroughputExceededException({
        message: 'Rate of requests exceeds the allowed throughput',
        $metadata: {},
      }),
    );
    const response = await call();
    expect(response.statusCode).toBe(503);
    expect(response.headers).toMatchObject({ 'Retry-After': '1', 'X-Request-Id': 'req-fault' });
    expectOpaque(response.body, 'Service Unavailable.');
  });

  it('retries UnprocessedKeys of the first BatchGetItem with backoff and returns the whole page in order', async () => {
    dynamodb.on(QueryCommand).resolves({ Items: entries(3, 2, 1), Count: 3 });
    dynamodb
      .on(BatchGetItemCommand)
      .resolvesOnce({
        Responses: { [TABLE]: [vacancy(1)] },
        UnprocessedKeys: {
          [TABLE]: {
            Keys: entries(3, 2),
          },
        },
      })
      .resolvesOnce({ Responses: { [TABLE]: [vacancy(2), vacancy(3)] } });

    const response = await call();
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).data.map((v: { id: number }) => v.id)).toEqual([3, 2, 1]);
    const batches = dynamodb.commandCalls(BatchGetItemCommand);
    expect(batches).toHaveLength(2);
    // The retry asks for the unprocessed keys only.
    expect(batches[1]?.args[0].input.RequestItems?.[TABLE]?.Keys).toEqual(entries(3, 2));
    // That round made progress, so its retry follows at once.
    expect(sleeps).toHaveLength(0);
  });

  it('completes a page however many rounds it takes, as long as each round makes progress', async () => {
    // DynamoDB stops a BatchGetItem at 16 MB: large items come back a few per round.
    const ids = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    dynamodb.on(QueryCommand).resolves({ Items: entries(...ids), Count: ids.length });
    dynamodb.on(BatchGetItemCommand).callsFake((input: BatchGetItemCommandInput) => {
      const [first, ...rest] = (input.RequestItems?.[TABLE]?.Keys ?? []).map((key) => unmarshall(key));
      return {
        Responses: { [TABLE]: first ? [vacancy(first.id as number)] : [] },
        ...(rest.length > 0 && { UnprocessedKeys: { [TABLE]: { Keys: rest.map((key) => marshall(key)) } } }),
      };
    });
    const response = await call();
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).data.map((v: { id: number }) => v.id)).toEqual(ids);
    expect(dynamodb.commandCalls(BatchGetItemCommand)).toHaveLength(10);
  });

  it('leaves out an item that belongs to another vendor, whatever the index said, and counts it for the alarm', async () => {
    dynamodb.on(QueryCommand).resolves({ Items: entries(2, 1), Count: 2 });
    dynamodb.on(BatchGetItemCommand).resolves({ Responses: { [TABLE]: [vacancy(1), vacancy(2, 'globex')] } });
    const added = jest.spyOn(metrics, 'count');
    const response = await call();
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body).data.map((v: { id: number }) => v.id)).toEqual([1]);
    expect(added).toHaveBeenCalledWith('foreignItems', 1);
    added.mockRestore();
  });

  it('gives up on keys that stay unprocessed, round after round, after the bounded retries: 503', async () => {
    dynamodb.on(QueryCommand).resolves({ Items: entries(1), Count: 1 });
    dynamodb.on(BatchGetItemCommand).resolves({
      Responses: { [TABLE]: [] },
      UnprocessedKeys: { [TABLE]: { Keys: entries(1) } },
    });
    const response = await call();
    expect(response.statusCode).toBe(503);
    expect(dynamodb.commandCalls(BatchGetItemCommand)).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps.every((ms) => ms >= 0 && ms <= 100)).toBe(true);
  });

  it('answers a generic 500 to an unexpected error, with no exception name, table or detail', async () => {
    const error = Object.assign(new Error('One or more parameter values were invalid: table Vacancies'), {
      name: 'ValidationException',
      $fault: 'client',
    });
    dynamodb.on(QueryCommand).rejects(error);
    const response = await call();
    expect(response.statusCode).toBe(500);
    expectOpaque(response.body, 'Server Error.');
  });

  it('treats a DynamoDB server fault (5xx) as unavailability, not a bug', async () => {
    dynamodb
      .on(QueryCommand)
      .rejects(
        Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $fault: 'server' }),
      );
    expect((await call()).statusCode).toBe(503);
  });
});
