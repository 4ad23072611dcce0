/** The operator's writes and listings of vendors (README "Operating"). Each addresses what it touches by key. */
import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailed } from '../../lambda/dynamodb/errors';
import { VENDOR_INDEXES } from '../../lambda/schema/tables';
import { ITEM_KIND, type Vendor, type VendorStatus, vendorItemKey } from '../../lambda/schema/vendors';

/** Every item of a Query, following `LastEvaluatedKey`. */
export async function queryAll(
  client: DynamoDBDocumentClient,
  input: ConstructorParameters<typeof QueryCommand>[0],
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(output.Items ?? []));
    startKey = output.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Creates a vendor or changes its company name (keeping its status and creation time). */
export async function putVendor(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendor: { vendorId: string; company: string; status?: VendorStatus },
  now = new Date(),
): Promise<Vendor> {
  const timestamp = now.toISOString();
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: vendorItemKey(vendor.vendorId),
      UpdateExpression:
        'SET kind = :kind, vendorId = :id, company = :company, #status = ' +
        (vendor.status ? ':status' : 'if_not_exists(#status, :status)') +
        ', createdAt = if_not_exists(createdAt, :now), updatedAt = :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':kind': ITEM_KIND.vendor,
        ':id': vendor.vendorId,
        ':company': vendor.company,
        ':status': vendor.status ?? 'active',
        ':now': timestamp,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toVendor(Attributes ?? {});
}

/** Suspends or reactivates an existing vendor; false when there is no such vendor. */
export async function setVendorStatus(
  client: DynamoDBDocumentClient,
  tableName: string,
  vendorId: string,
  status: VendorStatus,
  now = new Date(),
): Promise<boolean> {
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: vendorItemKey(vendorId),
        UpdateExpression: 'SET #status = :status, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** The public fields of a vendor item. */
function toVendor(item: Record<string, unknown>): Vendor {
  const { vendorId, company, status, createdAt, updatedAt } = item as unknown as Vendor;
  return { vendorId, company, status, createdAt, updatedAt };
}

/** Every vendor, by id: a Query of the vendor items (the `by-kind` index), never of keys or vacancies. */
export async function listVendors(client: DynamoDBDocumentClient, tableName: string): Promise<Vendor[]> {
  const items = await queryAll(client, {
    TableName: tableName,
    IndexName: VENDOR_INDEXES.byKind,
    KeyConditionExpression: 'kind = :kind',
    ExpressionAttributeValues: { ':kind': ITEM_KIND.vendor },
  });
  return items.map(toVendor);
}
