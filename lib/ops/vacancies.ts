import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { toVacancyItem } from '../../lambda/vacancies/record';
import type { VacancyRecord } from '../../lambda/vacancies/types';
import { batchWrite } from './batch-write';

/**
 * Upserts validated vacancy records by id (a put replaces the whole item, so a status that is no longer
 * `active` takes the vacancy out of the active index in the same write).
 */
export async function putVacancyRecords(
  client: DynamoDBDocumentClient,
  tableName: string,
  records: readonly VacancyRecord[],
  onProgress?: (done: number) => void,
): Promise<void> {
  await batchWrite(
    client,
    tableName,
    records.map((record) => ({ PutRequest: { Item: toVacancyItem(record) } })),
    onProgress,
  );
}
