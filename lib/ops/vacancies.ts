/** The operator's changes to one vacancy, addressed by its id (the table's key): no Scan, ever. */
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed } from '../../lambda/aws/failure';
import type { VacancyStatus } from '../../lambda/schema/vacancy';
import { fromVacancyItem, toVacancyItem, type VacancyItem } from '../../lambda/schema/vacancy-item';

/** What a change found: the vacancy (as it was before), none with that id, or one of another vendor. */
export type VacancyChange =
  | { readonly found: VacancyItem }
  | { readonly notFound: true }
  | { readonly otherVendor: string };

/** The stored vacancy with this id, or undefined: one GetItem. */
export async function findVacancy(
  client: DynamoDBDocumentClient,
  tableName: string,
  id: number,
): Promise<VacancyItem | undefined> {
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { id } }));
  return Item as VacancyItem | undefined;
}

/** Whether a stored vacancy may be changed by a command that named `vendorId` (or named none). */
function check(item: VacancyItem | undefined, vendorId: string | undefined): VacancyChange {
  if (!item) return { notFound: true };
  if (vendorId !== undefined && item.vendorId !== vendorId) return { otherVendor: item.vendorId };
  return { found: item };
}

/**
 * Changes a vacancy's status; any status but `active` takes it out of the listing, `active` puts it back (the
 * whole item is rewritten from the stored one, so the index attributes follow). With `vendorId`, only that
 * vendor's vacancy is changed.
 */
export async function setVacancyStatus(
  client: DynamoDBDocumentClient,
  tableName: string,
  id: number,
  status: VacancyStatus,
  vendorId?: string,
): Promise<VacancyChange> {
  const outcome = check(await findVacancy(client, tableName, id), vendorId);
  if (!('found' in outcome)) return outcome;
  const item = toVacancyItem({ ...fromVacancyItem(outcome.found), status });
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: item,
        ConditionExpression: 'vendorId = :vendor',
        ExpressionAttributeValues: { ':vendor': outcome.found.vendorId },
      }),
    );
  } catch (error) {
    // Deleted since it was read.
    if (isConditionFailed(error)) return { notFound: true };
    throw error;
  }
  return outcome;
}

/** Deletes a vacancy; with `vendorId`, only that vendor's. */
export async function deleteVacancy(
  client: DynamoDBDocumentClient,
  tableName: string,
  id: number,
  vendorId?: string,
): Promise<VacancyChange> {
  try {
    const { Attributes } = await client.send(
      new DeleteCommand({
        TableName: tableName,
        Key: { id },
        ConditionExpression:
          vendorId === undefined ? 'attribute_exists(id)' : 'attribute_exists(id) AND vendorId = :vendor',
        ...(vendorId !== undefined && { ExpressionAttributeValues: { ':vendor': vendorId } }),
        ReturnValues: 'ALL_OLD',
      }),
    );
    return { found: Attributes as VacancyItem };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return check(await findVacancy(client, tableName, id), vendorId);
  }
}
