import {
  type AttributeDefinition,
  type AttributeValue,
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type KeySchemaElement,
  type Projection,
  PutItemCommand,
  ResourceInUseException,
  ScanCommand,
  UpdateTableCommand,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import {
  type GlobalIndexDefinition,
  type KeyAttribute,
  type TableDefinition,
  type TableNames,
  VACANCIES_TABLE,
  VENDORS_TABLE,
} from '../lambda/domain/schema/tables';

/** Table names for a local engine: the logical names, optionally behind a prefix (tests use one per file). */
export function localTableNames(prefix = ''): TableNames {
  return {
    vacancies: `${prefix}${VACANCIES_TABLE.logicalName}`,
    vendors: `${prefix}${VENDORS_TABLE.logicalName}`,
  };
}

function keySchema(partitionKey: KeyAttribute, sortKey?: KeyAttribute): KeySchemaElement[] {
  const schema: KeySchemaElement[] = [{ AttributeName: partitionKey.name, KeyType: 'HASH' }];
  if (sortKey) schema.push({ AttributeName: sortKey.name, KeyType: 'RANGE' });
  return schema;
}

function projection(index: GlobalIndexDefinition): Projection {
  const { projection } = index;
  return projection.type === 'INCLUDE'
    ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...projection.nonKeyAttributes] }
    : { ProjectionType: projection.type };
}

/**
 * The `CreateTable` request for a table definition, on-demand billing. The CDK stack's template test
 * compares its tables with these requests, so the local and deployed schemas are provably the same.
 */
export function createTableInput(definition: TableDefinition, tableName: string): CreateTableCommandInput {
  const keys = [definition.partitionKey, definition.sortKey];
  for (const index of definition.globalIndexes) keys.push(index.partitionKey, index.sortKey);
  const attributeTypes = new Map<string, KeyAttribute['type']>();
  for (const key of keys) if (key) attributeTypes.set(key.name, key.type);
  const attributeDefinitions: AttributeDefinition[] = [...attributeTypes].map(([name, type]) => ({
    AttributeName: name,
    AttributeType: type,
  }));

  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: attributeDefinitions,
    KeySchema: keySchema(definition.partitionKey, definition.sortKey),
    ...(definition.globalIndexes.length > 0 && {
      GlobalSecondaryIndexes: definition.globalIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection: projection(index),
      })),
    }),
  };
}

/**
 * Creates the service's tables on a DynamoDB endpoint (the embedded engine, DynamoDB Local, …) and waits
 * until they are active. Idempotent: a table that already exists keeps its items, and gains the indexes a newer
 * release added (`addMissingIndexes`).
 */
export async function createTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  const requests = [
    createTableInput(VACANCIES_TABLE, names.vacancies),
    createTableInput(VENDORS_TABLE, names.vendors),
  ];
  await Promise.all(
    requests.map(async (input) => {
      try {
        await client.send(new CreateTableCommand(input));
      } catch (error) {
        if (!(error instanceof ResourceInUseException)) throw error;
        await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: input.TableName });
        await addMissingIndexes(client, input);
      }
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: input.TableName });
    }),
  );
}

/** The names of a table's global secondary indexes, as the engine describes it. */
async function indexNames(client: DynamoDBClient, tableName: string): Promise<Set<string>> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  return new Set((Table?.GlobalSecondaryIndexes ?? []).map(({ IndexName }) => IndexName as string));
}

/**
 * Gives an existing table the indexes of its definition it lacks (docs/operating.md#upgrading), as a deploy does: one
 * `UpdateTable` per index, which DynamoDB and DynamoDB Local answer by filling the index from the items already
 * stored. The embedded engine (dynalite) adds no index to an existing table (it refuses the call, or ignores it): there
 * the table is rebuilt with its definition's indexes and its items put back — the same end state, for the small
 * tables of a local data directory.
 */
export async function addMissingIndexes(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
): Promise<void> {
  const tableName = input.TableName as string;
  const wanted = input.GlobalSecondaryIndexes ?? [];
  let present = await indexNames(client, tableName);
  for (const index of wanted) {
    if (present.has(index.IndexName as string)) continue;
    try {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: input.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [
            {
              Create: {
                IndexName: index.IndexName,
                KeySchema: index.KeySchema,
                Projection: index.Projection,
              },
            },
          ],
        }),
      );
    } catch (error) {
      // dynalite's refusal: it takes an index only with provisioned throughput, which on-demand tables have not.
      if (!(error instanceof Error && /provisionedThroughput/.test(error.message))) throw error;
      await rebuildTable(client, input);
      return;
    }
    await waitUntilIndexesActive(client, tableName);
    present = await indexNames(client, tableName);
    if (!present.has(index.IndexName as string)) {
      await rebuildTable(client, input);
      return;
    }
  }
}

/** Waits until the table and each of its indexes are active (an added index is filled first). */
async function waitUntilIndexesActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexes = Table?.GlobalSecondaryIndexes ?? [];
    if (Table?.TableStatus === 'ACTIVE' && indexes.every(({ IndexStatus }) => IndexStatus === 'ACTIVE'))
      return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`The indexes of ${tableName} did not become active`);
}

/** Rebuilds a table with its definition: its items read, the table created anew, the items put back. */
async function rebuildTable(client: DynamoDBClient, input: CreateTableCommandInput): Promise<void> {
  const tableName = input.TableName as string;
  const items: Record<string, AttributeValue>[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  await waitUntilTableNotExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: tableName });
  await client.send(new CreateTableCommand(input));
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: tableName });
  for (const Item of items) await client.send(new PutItemCommand({ TableName: tableName, Item }));
}
