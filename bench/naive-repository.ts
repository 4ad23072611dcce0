import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { VacancyRepository } from '../lambda/domain/reads/repository';
import { activeIndexCondition, type OrderBound } from '../lambda/domain/schema/active-index';
import { ITEM } from '../lambda/domain/schema/tables';
import { type ListedVacancy, withCities } from '../lambda/domain/schema/vacancy-item';

const units = (capacity: ConsumedCapacity | undefined) => capacity?.CapacityUnits ?? 0;

/**
 * THE NAIVE BASELINE — benchmark only, never deployed. The obvious design this service is compared with: the
 * same sparse active index, but projecting ALL attributes, so that full items are read from it, and no summary. It
 * counts with `Select: COUNT` on every request (DynamoDB still reads, and bills, every full item it counts) and
 * reads full items in order up to the page — from the top for an offset, from the position for a cursor. Same
 * filters, same order, same pages, same answers as ours.
 */
export function createNaiveRepository(client: DynamoDBDocumentClient, tableName: string): VacancyRepository {
  return {
    async readPage(query) {
      let bound: OrderBound | undefined;
      let descending = true;
      if ('cursor' in query.start) {
        const { direction, inclusive, position } = query.start.cursor;
        descending = direction === 'older';
        bound = { comparison: descending ? (inclusive ? '<=' : '<') : inclusive ? '>=' : '>', position };
      }
      const skip = 'offset' in query.start ? query.start.offset : 0;
      const end = skip + query.limit + 1;
      const base = {
        TableName: tableName,
        ScanIndexForward: !descending,
        ...activeIndexCondition(query.vendorId, query.filters, query.today, bound),
      };
      let readUnits = 0;
      let calls = 0;
      const matched: (ListedVacancy & { o: Uint8Array })[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const output: QueryCommandOutput = await client.send(
          new QueryCommand({
            ...base,
            // No OFFSET in DynamoDB: read (full) items from the start until the page is reached.
            Limit: Math.max(end - matched.length, 1),
            ExclusiveStartKey: startKey,
            ReturnConsumedCapacity: 'TOTAL',
          }),
        );
        calls += 1;
        readUnits += units(output.ConsumedCapacity);
        // Each item with its cities read back, as the repository's item reads give them.
        matched.push(...((output.Items ?? []) as (ListedVacancy & { o: Uint8Array })[]).map(withCities));
        startKey = output.LastEvaluatedKey;
      } while (startKey && matched.length < end);
      const page = matched.slice(skip, skip + query.limit);
      if (!descending) page.reverse();
      return {
        vacancies: page,
        ...(page[0] && { first: page[0][ITEM.order] }),
        ...(page.length > 0 && { last: page.at(-1)?.[ITEM.order] }),
        more: matched.length > skip + query.limit,
        readUnits,
        calls,
        foreignItems: 0,
      };
    },

    async countActive(query) {
      let readUnits = 0;
      let calls = 0;
      let total = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const output: QueryCommandOutput = await client.send(
          new QueryCommand({
            TableName: tableName,
            ...activeIndexCondition(query.vendorId, query.filters, query.today),
            Select: 'COUNT',
            ExclusiveStartKey: startKey,
            ReturnConsumedCapacity: 'TOTAL',
          }),
        );
        calls += 1;
        readUnits += units(output.ConsumedCapacity);
        total += output.Count ?? 0;
        startKey = output.LastEvaluatedKey;
      } while (startKey);
      return { total, readUnits, calls };
    },

    // No summary: every request counts.
    async readSummary() {
      return { summary: undefined, readUnits: 0, calls: 0 };
    },

    // The baseline lists; it has no change index to sync from, and a job page's one GetItem has no naive form.
    readChanges: notABaseline,
    countChanges: notABaseline,
    readItems: notABaseline,
    readVacancy: notABaseline,
    // Search is measured on ours alone, against our listing without its parameters.
    readSearchEntries: notABaseline,
    readListed: notABaseline,
  };
}

async function notABaseline(): Promise<never> {
  throw new Error('The naive baseline has no change index: syncs are measured on ours alone');
}
