import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { TableNames } from '../lambda/domain/schema/tables';
import { createDynamoDBClient } from '../lambda/platform/dynamodb/client';
import { createDocumentClient } from '../lambda/platform/dynamodb/document-client';
import { createTables, localTableNames } from '../lib/create-tables';

/** A test file's own tables on the run's DynamoDB engine. */
export interface TestTables {
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  readonly documentClient: DynamoDBDocumentClient;
  readonly names: TableNames;
  /** Deletes the tables and closes the client. */
  drop(): Promise<void>;
}

/** The endpoint started by the global setup (or given by the developer). */
export function testEndpoint(): string {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('DYNAMODB_ENDPOINT is not set: run the tests through jest (npm test).');
  return endpoint;
}

/** An engine a test file started for itself, and how to stop it. */
export interface OwnEngine {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/**
 * An engine of a test file's own, for a load that would slow every other file's requests on the run's shared one
 * (thousands of writes at once): when the run started its engine, the embedded engine in a process of its own
 * (`engine-child.ts`, in memory); when the developer gave one (`DYNAMODB_ENDPOINT`: DynamoDB Local,
 * say), that one, which the file then shares — the suite runs on the engine it is given.
 */
export async function ownEngine(): Promise<OwnEngine> {
  if (process.env.VVA_TEST_ENGINE !== 'embedded') return { endpoint: testEndpoint(), stop: async () => {} };
  // In memory, as the run's own: `engine-child.ts` keeps its store in a folder only when it is given one.
  const child = fork(new URL('./engine-child.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'ignore',
  });
  const { endpoint } = await new Promise<{ endpoint: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { endpoint: string }));
    child.once('exit', (code) => reject(new Error(`the engine exited (${code}) before it listened`)));
  });
  return {
    endpoint,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Creates the service's tables under a random prefix, so parallel test files never share data: on the run's engine,
 * or on `engine` (one of the file's own, `ownEngine`). `connect` reaches them through another endpoint (a fault proxy
 * in front of the engine, say).
 */
export async function createTestTables(
  options: { connect?: string; maxAttempts?: number; engine?: string; requestTimeoutMs?: number } = {},
): Promise<TestTables> {
  const endpoint = options.engine ?? testEndpoint();
  const setup = createDynamoDBClient({ endpoint });
  const names = localTableNames(`t${randomUUID().slice(0, 8)}-`);
  await createTables(setup, names);
  setup.destroy();
  const client = createDynamoDBClient({
    endpoint: options.connect ?? endpoint,
    ...(options.maxAttempts !== undefined && { maxAttempts: options.maxAttempts }),
    ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
  });
  return {
    endpoint,
    client,
    documentClient: createDocumentClient(client),
    names,
    async drop() {
      client.destroy();
      const cleanup = createDynamoDBClient({
        endpoint,
        ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
      });
      // A table already gone is dropped: deleting a large one can outlast the SDK's attempt on a loaded machine, and
      // its retry then finds the table deleted.
      await Promise.all(
        Object.values(names).map((TableName) =>
          cleanup.send(new DeleteTableCommand({ TableName })).catch((error: Error) => {
            if (error.name !== 'ResourceNotFoundException') throw error;
          }),
        ),
      );
      cleanup.destroy();
    },
  };
}

/**
 * A vendor's entries on an index of the vacancies table (`ACTIVE_INDEX`, `CHANGE_INDEX`), as the index holds them,
 * in its order (the active index's newest first with `descending`), every page read.
 */
export async function vendorEntries(
  tables: Pick<TestTables, 'documentClient' | 'names'>,
  index: { readonly name: string; readonly partitionKey: string },
  vendorId: string,
  options: { readonly descending?: boolean } = {},
): Promise<NonNullable<QueryCommandOutput['Items']>> {
  const entries: NonNullable<QueryCommandOutput['Items']> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await tables.documentClient.send(
      new QueryCommand({
        TableName: tables.names.vacancies,
        IndexName: index.name,
        KeyConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': index.partitionKey },
        ExpressionAttributeValues: { ':v': vendorId },
        ScanIndexForward: !options.descending,
        ExclusiveStartKey: start,
      }),
    );
    entries.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return entries;
}
