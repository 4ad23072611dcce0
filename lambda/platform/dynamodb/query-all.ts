/** Following a Query's pages to the end: for the jobs and tools that need every item a key condition selects. */
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/** Each page of a Query's items, following `LastEvaluatedKey`. */
export async function* queryPages(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
): AsyncGenerator<Record<string, unknown>[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    yield output.Items ?? [];
    startKey = output.LastEvaluatedKey;
  } while (startKey);
}

/** Every item of a Query, following `LastEvaluatedKey`. */
export async function queryAll(
  client: DynamoDBDocumentClient,
  input: QueryCommandInput,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(client, input)) items.push(...page);
  return items;
}
