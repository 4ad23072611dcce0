/**
 * The exact counts a vendor's summary should hold, read the slow way (the whole active index), and the summary as
 * stored: what the tests of the summary compare.
 */

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Counts,
  countAttribute,
  dayAttribute,
  readSummary,
  type Summary,
  summaryItemKey,
} from '../../lambda/schema/summary';
import { ACTIVE_INDEX, ITEM, type TableNames } from '../../lambda/schema/tables';

/** A vendor's active index entries: type, experience range and deadline day of each. */
export async function activeEntries(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  vendorId: string,
): Promise<{ type: number; min: number; max: number | undefined; day: number }[]> {
  const entries: { type: number; min: number; max: number | undefined; day: number }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await client.send(
      new QueryCommand({
        TableName: tables.vacancies,
        IndexName: ACTIVE_INDEX.name,
        KeyConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': ACTIVE_INDEX.partitionKey },
        ExpressionAttributeValues: { ':v': vendorId },
        ConsistentRead: false,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const entry of output.Items ?? []) {
      entries.push({
        type: entry[ITEM.type] as number,
        min: entry[ITEM.experienceMin] as number,
        max: entry[ITEM.experienceMax] as number | undefined,
        day: entry[ITEM.deadline] as number,
      });
    }
    startKey = output.LastEvaluatedKey;
  } while (startKey);
  return entries;
}

/** The counts a current summary of the vendor holds: by range and by deadline day, no zeros, sorted by name. */
export async function exactCounts(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  vendorId: string,
): Promise<[string, number][]> {
  const counts: Counts = new Map();
  for (const { type, min, max, day } of await activeEntries(client, tables, vendorId)) {
    for (const name of [countAttribute(type, min, max), dayAttribute(day)]) {
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b));
}

/** A vendor's summary as stored (read strongly), undefined when it has none. */
export async function storedSummary(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  vendorId: string,
): Promise<Summary | undefined> {
  const { Item } = await client.send(
    new GetCommand({ TableName: tables.vendors, Key: summaryItemKey(vendorId), ConsistentRead: true }),
  );
  return Item ? readSummary(Item) : undefined;
}

/** A summary's counts in the form of `exactCounts`. */
export function summaryCounts(summary: Summary | undefined): [string, number][] {
  if (!summary) return [];
  const counts: [string, number][] = [
    ...summary.ranges.map(
      ({ type, min, max, count }) => [countAttribute(type, min, max), count] as [string, number],
    ),
    ...[...summary.days].map(([day, count]) => [dayAttribute(day), count] as [string, number]),
  ];
  return counts.filter(([, count]) => count !== 0).sort(([a], [b]) => a.localeCompare(b));
}
