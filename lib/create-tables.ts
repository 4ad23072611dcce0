import {
  type AttributeDefinition,
  CreateTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
  type KeySchemaElement,
  type Projection,
  ResourceInUseException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import {
  type GlobalIndexDefinition,
  type KeyAttribute,
  type TableDefinition,
  type TableNames,
  VACANCIES_TABLE,
  VENDORS_TABLE,
} from '../lambda/schema/tables';

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
 * until they are active. Idempotent: a table that already exists is left as it is.
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
      }
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: input.TableName });
    }),
  );
}
