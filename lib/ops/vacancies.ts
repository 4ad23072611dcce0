import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { scanAll } from '../../lambda/shared/dynamodb';
import { toVacancyItem, toVacancyRecord } from '../../lambda/vacancies/record';
import type { StoredVacancy, VacancyRecord, VacancyStatus } from '../../lambda/vacancies/types';
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

/**
 * The vendor of each of these vacancy ids that exists. The table is keyed by vendor, so this is a Scan that
 * reads keys only — an operator's tool, never the request path. Empty input reads nothing.
 */
export async function vendorsOfVacancyIds(
  client: DynamoDBDocumentClient,
  tableName: string,
  ids: ReadonlySet<number>,
): Promise<Map<number, string>> {
  const owners = new Map<number, string>();
  if (ids.size === 0) return owners;
  const items = await scanAll(client, { TableName: tableName, ProjectionExpression: 'vendorId, id' });
  for (const { vendorId, id } of items as { vendorId: string; id: number }[])
    if (ids.has(id)) owners.set(id, vendorId);
  return owners;
}

/** A stored vacancy by id (and vendor, when known: one GetItem instead of a Scan), or undefined. */
export async function findVacancy(
  client: DynamoDBDocumentClient,
  tableName: string,
  id: number,
  vendorId?: string,
): Promise<StoredVacancy | undefined> {
  const owner = vendorId ?? (await vendorsOfVacancyIds(client, tableName, new Set([id]))).get(id);
  if (owner === undefined) return undefined;
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { vendorId: owner, id } }));
  return Item as StoredVacancy | undefined;
}

/** Changes a vacancy's status, entering or leaving the active index accordingly; undefined if there is no such vacancy. */
export async function setVacancyStatus(
  client: DynamoDBDocumentClient,
  tableName: string,
  id: number,
  status: VacancyStatus,
  vendorId?: string,
): Promise<StoredVacancy | undefined> {
  const stored = await findVacancy(client, tableName, id, vendorId);
  if (!stored) return undefined;
  await putVacancyRecords(client, tableName, [{ ...toVacancyRecord(stored), status }]);
  return { ...stored, status };
}

/** Deletes a vacancy; undefined if there is no such vacancy. */
export async function deleteVacancy(
  client: DynamoDBDocumentClient,
  tableName: string,
  id: number,
  vendorId?: string,
): Promise<StoredVacancy | undefined> {
  const stored = await findVacancy(client, tableName, id, vendorId);
  if (!stored) return undefined;
  await client.send(new DeleteCommand({ TableName: tableName, Key: { vendorId: stored.vendorId, id } }));
  return stored;
}
