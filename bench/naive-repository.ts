import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { activeIndexCondition } from '../lambda/schema/active-index';
import type { ListedVacancy } from '../lambda/schema/vacancy-item';
import type { ActiveVacancyQuery, VacancyRepository } from '../lambda/vacancies/repository';

const units = (capacity: ConsumedCapacity | undefined) => capacity?.CapacityUnits ?? 0;

/**
 * THE NAIVE BASELINE — benchmark only, never deployed. The obvious design this service is compared with: the
 * same sparse active index, but projecting ALL attributes, so that full items are read from it. It counts with
 * `Select: COUNT` (DynamoDB still reads, and bills, every full item it counts) and then reads full items in
 * order up to the page's offset, keeping the page. Same filters, same order, same answers as ours.
 */
export function createNaiveRepository(client: DynamoDBDocumentClient, tableName: string): VacancyRepository {
  return {
    async listActive(query: ActiveVacancyQuery) {
      const base = {
        TableName: tableName,
        ScanIndexForward: false,
        ...activeIndexCondition(query.vendorId, query.filters, query.today),
      };
      let readUnits = 0;
      let calls = 0;

      let total = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const output: QueryCommandOutput = await client.send(
          new QueryCommand({
            ...base,
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

      const end = query.offset + query.limit;
      const matched: ListedVacancy[] = [];
      startKey = undefined;
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
        matched.push(...((output.Items ?? []) as ListedVacancy[]));
        startKey = output.LastEvaluatedKey;
      } while (startKey && matched.length < end);

      return { total, vacancies: matched.slice(query.offset, end), readUnits, calls, foreignItems: 0 };
    },
  };
}
