/**
 * The exact counts a vendor's summary should hold, counted here from the entries of its active index (read with
 * the recount's own reader), and the summary as stored: what the tests of the summary compare.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { countAttribute, dayAttribute, type Summary } from '../lambda/domain/schema/summary';
import type { TableNames } from '../lambda/domain/schema/tables';
import { type ActiveEntry, activeIndexEntries } from '../lambda/domain/store/recount';
import { SummaryStore } from '../lambda/domain/store/summary-store';

/** A vendor's active index entries: type, experience range and deadline day of each. */
export async function activeEntries(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  vendorId: string,
): Promise<ActiveEntry[]> {
  const entries: ActiveEntry[] = [];
  for await (const page of activeIndexEntries(client, tables.vacancies, vendorId)) entries.push(...page);
  return entries;
}

/** The counts a current summary of the vendor holds: by range and by deadline day, no zeros, sorted by name. */
export async function exactCounts(
  client: DynamoDBDocumentClient,
  tables: TableNames,
  vendorId: string,
): Promise<[string, number][]> {
  const counts = new Map<string, number>();
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
  return (await new SummaryStore(client, tables.vendors).read(vendorId)).summary;
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
