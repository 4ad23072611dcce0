/**
 * The request path's reads (docs/design.md#cold-start): GetItem, Query and BatchGetItem sent as DynamoDB's own
 * commands, their key and expression values written as attribute values here and their items read back with
 * `@aws-sdk/util-dynamodb`'s `unmarshall` — so that a function that only reads bundles neither
 * `@aws-sdk/lib-dynamodb` (its document client, commands and paginators) nor the general `marshall`. The jobs and
 * tools, which write, keep the document client (`document-client.ts`); it passes these commands on unchanged, so
 * the same reads serve them too.
 */
import type {
  AttributeValue,
  BatchGetItemCommand,
  BatchGetItemCommandOutput,
  GetItemCommand,
  GetItemCommandOutput,
  QueryCommand,
  QueryCommandOutput,
} from '@aws-sdk/client-dynamodb';

/** What the reads send their commands through: a `DynamoDBClient`, or a `DynamoDBDocumentClient` over one. */
export interface ReadClient {
  send(command: GetItemCommand, options?: { abortSignal?: AbortSignal }): Promise<GetItemCommandOutput>;
  send(command: QueryCommand, options?: { abortSignal?: AbortSignal }): Promise<QueryCommandOutput>;
  send(
    command: BatchGetItemCommand,
    options?: { abortSignal?: AbortSignal },
  ): Promise<BatchGetItemCommandOutput>;
}

/** A value of a key or of a read's condition: the tables' keys and index attributes are strings, numbers and bytes. */
export type KeyValue = string | number | Uint8Array;

/** One value as DynamoDB's attribute value. */
export function attributeValue(value: KeyValue): AttributeValue {
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') {
    // As the document client does: a number DynamoDB could not hold exactly is refused, not rounded.
    if (!Number.isFinite(value)) throw new TypeError(`${value} is not a number DynamoDB can store`);
    return { N: String(value) };
  }
  return { B: value };
}

/** Named values (a key, an expression's values) as attribute values. */
export function attributeValues(values: Readonly<Record<string, KeyValue>>): Record<string, AttributeValue> {
  const converted: Record<string, AttributeValue> = {};
  for (const [name, value] of Object.entries(values)) converted[name] = attributeValue(value);
  return converted;
}
