import { describe, expect, it } from '@jest/globals';
import { TABLES } from '../../../../lambda/domain/schema/tables';
import { createTableInput } from '../../../../lib/create-tables';
import { sharedStackTemplate } from '../../../../testkit/synth-server';

/** The part of a table's shape that both the stack and `createTables` define, in one comparable form. */
function shape(table: {
  KeySchema?: unknown;
  AttributeDefinitions?: { AttributeName?: string }[];
  GlobalSecondaryIndexes?: { IndexName?: string }[];
}) {
  const byName = <T>(items: T[] | undefined, key: (item: T) => string | undefined) =>
    [...(items ?? [])].sort((a, b) => String(key(a)).localeCompare(String(key(b))));
  return {
    KeySchema: table.KeySchema,
    AttributeDefinitions: byName(table.AttributeDefinitions, (a) => a.AttributeName),
    GlobalSecondaryIndexes: byName(table.GlobalSecondaryIndexes, (index) => index.IndexName),
  };
}

const template = await sharedStackTemplate();

describe('table definitions', () => {
  const tables = Object.values(template.findResources('AWS::DynamoDB::Table')).map(
    (resource) => resource.Properties as Parameters<typeof shape>[0],
  );

  it('provision exactly the defined tables', () => {
    expect(tables).toHaveLength(TABLES.length);
  });

  it.each(TABLES.map((definition) => [definition.logicalName, definition] as const))(
    'the stack and createTables build the same %s table',
    (_name, definition) => {
      const local = shape(createTableInput(definition, 'local') as Parameters<typeof shape>[0]);
      const deployed = tables.map(shape);
      expect(deployed).toContainEqual(local);
    },
  );

  it('make each vacancy index as narrow as what reads it: the filters, the status, the keys, what search matches', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: [
        {
          IndexName: 'active-by-vendor',
          KeySchema: [
            { AttributeName: 'v', KeyType: 'HASH' },
            { AttributeName: 'o', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['t', 'n', 'x', 'd'] },
        },
        {
          IndexName: 'changes-by-vendor',
          KeySchema: [
            { AttributeName: 'v', KeyType: 'HASH' },
            { AttributeName: 'c', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['status'] },
        },
        {
          IndexName: 'expiring',
          KeySchema: [
            { AttributeName: 'e', KeyType: 'HASH' },
            { AttributeName: 'd', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
        {
          IndexName: 'search-by-vendor',
          KeySchema: [
            { AttributeName: 'v', KeyType: 'HASH' },
            { AttributeName: 'o', KeyType: 'RANGE' },
          ],
          Projection: {
            ProjectionType: 'INCLUDE',
            NonKeyAttributes: ['t', 'n', 'x', 'd', 'category', 'city', 'title'],
          },
        },
      ],
    });
  });
});
